#!/usr/bin/env python3
"""Traffic for bench/soak-attacks.sh: normal calls, a heartbeat poll and attackers, for a fixed time.

usage: soak_attacks.py HOST PORT SECONDS
SOAK_ATTACKS (comma-separated, default all) picks the attackers: tsquery, handler, initialize, patterns,
batch, numeric, idle, halfbodies.
Prints the results and exits 1 when heartbeat p99 >= SOAK_HEARTBEAT_P99_MS (250 ms) or a normal call failed.
"""
import http.client
import os
import json
import socket
import sys
import threading
import time

HOST, PORT, SECONDS = sys.argv[1], int(sys.argv[2]), float(sys.argv[3])
# the recommended flags (SerialGC, 256 MB heap) pause everything for up to ~100 ms per full
# collection while batches of ~4 MB answers run; the hardening target is a server that stays
# responsive (p99 well under a second), not one without collections
HEARTBEAT_P99_MS = float(os.environ.get("SOAK_HEARTBEAT_P99_MS", "250"))
HEADERS = {"Content-Type": "application/json", "Accept": "application/json, text/event-stream"}
stop_at = time.monotonic() + SECONDS
lock = threading.Lock()
stats = {"normal_ok": 0, "normal_failed": 0, "attacks": 0, "initialize": 0, "idle_connections": 0,
         "half_bodies": 0, "half_bodies_refused": 0, "batches": 0, "patterns": 0, "numerics": 0}
BODY_LIMIT = 4 * 1024 * 1024
failures = []
heartbeats = []


def running():
    return time.monotonic() < stop_at


def count(key, n=1):
    with lock:
        stats[key] += n


def connection(timeout=120):
    return http.client.HTTPConnection(HOST, PORT, timeout=timeout)


def post(conn, message):
    conn.request("POST", "/mcp", body=json.dumps(message), headers=HEADERS)
    r = conn.getresponse()
    return r.status, r.read().decode("utf-8", "replace")


def execute(tool, inputs, rid=1):
    return {"jsonrpc": "2.0", "id": rid, "method": "tools/call",
            "params": {"name": "execute", "arguments": {"tool": tool, "inputs": inputs}}}


def heartbeat_poll():
    conn = connection(timeout=60)
    while running():
        started = time.monotonic()
        try:
            conn.request("GET", "/heartbeat")
            r = conn.getresponse()
            r.read()
            ok = r.status == 200
        except OSError:
            ok = False
            conn = connection(timeout=60)
        ms = (time.monotonic() - started) * 1000
        with lock:
            heartbeats.append(ms)
            if not ok:
                failures.append("heartbeat failed")
        time.sleep(0.01)


def normal_caller(n):
    conn = connection(timeout=30)
    i = 0
    while running():
        i += 1
        if i % 2:
            tool, inputs = "person", {"id": 1 + (i * 7 + n) % 1000}
            expected = None
        else:
            tool, inputs = "hello", {"name": f"n{n}-{i}"}
            expected = [{"greeting": f"hello n{n}-{i}"}]
        try:
            status, body = post(conn, execute(tool, inputs, i))
            result = json.loads(body).get("result") if status == 200 else None
            rows = json.loads(result["content"][0]["text"]) if result and not result.get("isError") else None
            ok = rows is not None and (rows == expected if expected else rows and rows[0]["id"] == inputs["id"])
            if ok:
                count("normal_ok")
            else:
                count("normal_failed")
                with lock:
                    failures.append(f"{tool}: {status} {body[:200]}")
        except (OSError, ValueError, KeyError) as e:
            count("normal_failed")
            with lock:
                failures.append(f"{tool}: {e!r}")
            conn = connection(timeout=30)
        time.sleep(0.02)


def attacker(kind):
    conn = connection()
    i = 0
    while running():
        i += 1
        try:
            if kind == "tsquery":
                length = 1_000_000 if i % 4 == 0 else 20_000
                post(conn, execute("people-search", {"q": "a b" + "a" * length}, i))
            elif kind == "handler":
                post(conn, execute("loud", {"q": "x" * 200_000}, i))
            elif kind == "patterns":
                post(conn, execute("hosts", {"hosts": ["a" * 700] * 2000}, i))
                count("patterns")
            elif kind == "batch":
                batch = [execute("big", {}, j) for j in range(100)]
                conn.request("POST", "/mcp", body=json.dumps(batch),
                             headers=dict(HEADERS, **{"MCP-Protocol-Version": "2025-03-26"}))
                r = conn.getresponse()
                r.read()
                count("batches")
            elif kind == "numeric":
                post(conn, execute("numeric", {"n": "1e131000"}, i))
                count("numerics")
            elif kind == "initialize":
                for _ in range(50):
                    post(conn, {"jsonrpc": "2.0", "id": i, "method": "initialize", "params": {
                        "protocolVersion": "2025-11-25", "capabilities": {},
                        "clientInfo": {"name": "soak", "version": "1"}}})
                count("initialize", 50)
                time.sleep(0.2)
            count("attacks")
        except OSError:
            conn = connection()


def half_bodies():
    """Keeps up to 200 connections open, each having sent a 4 MB body but its last byte."""
    held = []
    chunk = b" " * (64 * 1024)
    while running():
        try:
            s = socket.create_connection((HOST, PORT), timeout=10)
            s.sendall(b"POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                      b"Content-Length: " + str(BODY_LIMIT).encode() + b"\r\n\r\n")
            sent = 0
            while sent < BODY_LIMIT - 1 and running():
                n = min(len(chunk), BODY_LIMIT - 1 - sent)
                s.sendall(chunk[:n])
                sent += n
            s.setblocking(False)
            try:
                if s.recv(12).startswith(b"HTTP/1.1 503"):
                    count("half_bodies_refused")
            except BlockingIOError:
                pass
            held.append(s)
            count("half_bodies")
        except OSError:
            pass
        if len(held) >= 200:
            held.pop(0).close()
    for s in held:
        s.close()


def idle_connections():
    held = []
    while running():
        try:
            s = socket.create_connection((HOST, PORT), timeout=5)
            s.sendall(b"POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n")
            held.append(s)
            count("idle_connections")
        except OSError:
            pass
        if len(held) >= 50:
            held.pop(0).close()
        time.sleep(0.1)
    for s in held:
        s.close()


def percentile(values, p):
    values = sorted(values)
    return values[min(len(values) - 1, int(round(p / 100 * (len(values) - 1))))] if values else float("nan")


threads = [threading.Thread(target=heartbeat_poll)]
threads += [threading.Thread(target=normal_caller, args=(n,)) for n in range(2)]
ALL = ("tsquery", "handler", "initialize", "patterns", "batch", "numeric", "idle", "halfbodies")
chosen = [k.strip() for k in os.environ.get("SOAK_ATTACKS", ",".join(ALL)).split(",") if k.strip()]
unknown = [k for k in chosen if k not in ALL]
if unknown:
    sys.exit(f"unknown SOAK_ATTACKS {unknown}; known: {', '.join(ALL)}")
for k in chosen:
    if k == "idle":
        threads.append(threading.Thread(target=idle_connections))
    elif k == "halfbodies":
        threads.append(threading.Thread(target=half_bodies))
    else:
        threads += [threading.Thread(target=attacker, args=(k,)) for _ in range(2 if k == "tsquery" else 1)]
print("attacks:", ", ".join(chosen))
for t in threads:
    t.daemon = True
    t.start()
for t in threads:
    t.join(SECONDS + 180)

p50, p99 = percentile(heartbeats, 50), percentile(heartbeats, 99)
print(f"duration: {SECONDS:.0f} s")
print(f"normal calls: {stats['normal_ok']} ok, {stats['normal_failed']} failed")
print(f"attack calls: {stats['attacks']} (initialize calls: {stats['initialize']}, "
      f"idle half-request connections opened: {stats['idle_connections']})")
print(f"half-sent 4 MB bodies: {stats['half_bodies']} ({stats['half_bodies_refused']} refused with 503 at once); "
      f"pattern arrays: {stats['patterns']}; batches of 100 large answers: {stats['batches']}; "
      f"numeric expansions: {stats['numerics']}")
print(f"heartbeat: {len(heartbeats)} polls, p50 {p50:.1f} ms, p99 {p99:.1f} ms, max {max(heartbeats, default=0):.1f} ms")
for f in failures[:10]:
    print("failure:", f)
bad = p99 >= HEARTBEAT_P99_MS or stats["normal_failed"] > 0 or stats["normal_ok"] == 0
print("verdict:", "FAIL" if bad else "PASS", f"(heartbeat p99 < {HEARTBEAT_P99_MS:.0f} ms, every normal call answered)")
sys.exit(1 if bad else 0)
