#!/usr/bin/env python3
"""Constant MCP load through a load balancer, counting what fails (bench/rolling-restart.sh).

Clients, each a thread, each request on a connection of its own (as the balancer sees them):
  stateless  2026-07-28 tools/call of execute, one after another without pause
  session    2025-11-25: initialize once, then tools/call of execute without pause; a 404 means the
             session was lost (counted, then the client initializes again)
  get        a session's GET stream: held open; when it ends, reconnected with Last-Event-ID
             (counted as resumed when the new stream opens, broken when it does not)
  listen     2026-07-28 subscriptions/listen: held open; when it ends with its result, listened to again

Runs until the file named by --stop exists, then prints one JSON object of counts.
"""
import argparse
import http.client
import json
import os
import threading
import time

V_NEXT = "2026-07-28"
V_SESSION = "2025-11-25"
lock = threading.Lock()
counts = {
    "stateless_ok": 0, "stateless_failed": 0,
    "session_ok": 0, "session_failed": 0, "sessions_lost": 0,
    "get_streams_ended": 0, "get_streams_resumed": 0, "get_streams_broken": 0,
    "listen_streams_ended": 0, "listen_streams_reopened": 0, "listen_streams_broken": 0,
}
failures = []


def count(key, detail=None):
    with lock:
        counts[key] += 1
        if detail is not None and len(failures) < 50:
            failures.append(f"{time.strftime('%H:%M:%S')} {key}: {detail}")


def meta():
    return {"io.modelcontextprotocol/protocolVersion": V_NEXT,
            "io.modelcontextprotocol/clientInfo": {"name": "rolling-load", "version": "1"},
            "io.modelcontextprotocol/clientCapabilities": {}}


def execute_body(rid, customer, with_meta):
    params = {"name": "execute", "arguments": {"tool": "get-customer", "inputs": {"customer_id": customer}}}
    if with_meta:
        params["_meta"] = meta()
    return {"jsonrpc": "2.0", "id": rid, "method": "tools/call", "params": params}


def post(host, port, body, headers, timeout=30):
    conn = http.client.HTTPConnection(host, port, timeout=timeout)
    try:
        h = {"Content-Type": "application/json", "Accept": "application/json, text/event-stream"}
        h.update(headers)
        conn.request("POST", "/mcp", json.dumps(body), h)
        r = conn.getresponse()
        data = r.read().decode("utf-8", "replace")
        return r.status, dict(r.getheaders()), data
    finally:
        conn.close()


def answer(content_type, data):
    """The JSON-RPC answer of a POST: the body, or the SSE event that carries a result or error."""
    if content_type and content_type.startswith("text/event-stream"):
        for block in data.split("\n\n"):
            lines = [l[5:].strip() for l in block.split("\n") if l.startswith("data:")]
            if lines and lines[0]:
                message = json.loads("\n".join(lines))
                if "result" in message or "error" in message:
                    return message
        return None
    return json.loads(data) if data else None


def ok(status, headers, data):
    if status != 200:
        return False
    message = answer(headers.get("Content-Type", headers.get("content-type")), data)
    return message is not None and "result" in message and not message["result"].get("isError")


def stateless(args, n):
    rid = 0
    while not stopped(args):
        rid += 1
        try:
            status, headers, data = post(args.host, args.port, execute_body(rid, 1 + rid % 5, True),
                                         {"MCP-Protocol-Version": V_NEXT, "Mcp-Method": "tools/call",
                                          "Mcp-Name": "execute"})
            if ok(status, headers, data):
                count("stateless_ok")
            else:
                count("stateless_failed", f"{status} {data[:160]}")
        except Exception as e:  # a connection the balancer dropped
            count("stateless_failed", repr(e))


def initialize(args):
    status, headers, data = post(args.host, args.port, {
        "jsonrpc": "2.0", "id": 0, "method": "initialize",
        "params": {"protocolVersion": V_SESSION, "capabilities": {}, "clientInfo": {"name": "rolling-load", "version": "1"}}},
        {"MCP-Protocol-Version": V_SESSION})
    sid = {k.lower(): v for k, v in headers.items()}.get("mcp-session-id")
    if status != 200 or not sid:
        raise RuntimeError(f"initialize: {status} {data[:160]}")
    post(args.host, args.port, {"jsonrpc": "2.0", "method": "notifications/initialized"},
         {"MCP-Protocol-Version": V_SESSION, "Mcp-Session-Id": sid})
    return sid


def session(args, n, sessions):
    sid = None
    rid = 0
    while not stopped(args):
        try:
            if sid is None:
                sid = initialize(args)
                sessions.append(sid)
            rid += 1
            status, headers, data = post(args.host, args.port, execute_body(rid, 1 + rid % 5, False),
                                         {"MCP-Protocol-Version": V_SESSION, "Mcp-Session-Id": sid})
            if status == 404:
                count("sessions_lost", f"session {sid[:8]} 404 {data[:120]}")
                sid = None
            elif ok(status, headers, data):
                count("session_ok")
            else:
                count("session_failed", f"{status} {data[:160]}")
        except Exception as e:
            count("session_failed", repr(e))


def read_stream(response):
    """Reads an SSE stream to its end; returns the last event id seen."""
    last = None
    while True:
        line = response.fp.readline()
        if not line:
            return last
        line = line.decode("utf-8", "replace").rstrip("\r\n")
        if line.startswith("id:"):
            last = line[3:].strip()


def get_stream(args, n):
    sid = initialize(args)
    last = None
    first = True
    while not stopped(args):
        conn = http.client.HTTPConnection(args.host, args.port, timeout=3600)
        try:
            h = {"Accept": "text/event-stream", "MCP-Protocol-Version": V_SESSION, "Mcp-Session-Id": sid}
            if last:
                h["Last-Event-ID"] = last
            conn.request("GET", "/mcp", headers=h)
            r = conn.getresponse()
            if r.status != 200:
                count("get_streams_broken", f"GET {r.status} {r.read()[:120]}")
                time.sleep(1)
                continue
            if not first:
                count("get_streams_resumed")
            first = False
            seen = read_stream(r)
            last = seen or last
            if not stopped(args):
                count("get_streams_ended")
        except Exception as e:
            if not stopped(args):
                count("get_streams_broken", repr(e))
                time.sleep(1)
        finally:
            conn.close()


def listen_stream(args, n):
    first = True
    rid = 0
    while not stopped(args):
        rid += 1
        conn = http.client.HTTPConnection(args.host, args.port, timeout=3600)
        try:
            body = {"jsonrpc": "2.0", "id": f"listen-{n}-{rid}", "method": "subscriptions/listen",
                    "params": {"_meta": meta(), "notifications": {"toolsListChanged": True}}}
            conn.request("POST", "/mcp", json.dumps(body), {
                "Content-Type": "application/json", "Accept": "application/json, text/event-stream",
                "MCP-Protocol-Version": V_NEXT, "Mcp-Method": "subscriptions/listen"})
            r = conn.getresponse()
            if r.status != 200:
                count("listen_streams_broken", f"listen {r.status} {r.read()[:120]}")
                time.sleep(1)
                continue
            if not first:
                count("listen_streams_reopened")
            first = False
            read_stream(r)
            if not stopped(args):
                count("listen_streams_ended")
        except Exception as e:
            if not stopped(args):
                count("listen_streams_broken", repr(e))
                time.sleep(1)
        finally:
            conn.close()


def stopped(args):
    return os.path.exists(args.stop)


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--host", default="127.0.0.1")
    p.add_argument("--port", type=int, required=True)
    p.add_argument("--stop", required=True, help="the load stops once this file exists")
    p.add_argument("--stateless", type=int, default=4)
    p.add_argument("--sessions", type=int, default=4)
    p.add_argument("--get-streams", type=int, default=2)
    p.add_argument("--listen-streams", type=int, default=2)
    args = p.parse_args()
    sessions = []
    threads = []
    for i in range(args.stateless):
        threads.append(threading.Thread(target=stateless, args=(args, i), daemon=True))
    for i in range(args.sessions):
        threads.append(threading.Thread(target=session, args=(args, i, sessions), daemon=True))
    for i in range(args.get_streams):
        threads.append(threading.Thread(target=get_stream, args=(args, i), daemon=True))
    for i in range(args.listen_streams):
        threads.append(threading.Thread(target=listen_stream, args=(args, i), daemon=True))
    for t in threads:
        t.start()
    while not stopped(args):
        time.sleep(0.2)
    # the calls in flight finish; streams are left as they are
    time.sleep(2)
    with lock:
        print(json.dumps({"counts": counts, "failures": failures}, indent=1))


if __name__ == "__main__":
    main()
