#!/usr/bin/env python3
"""Execution samples of a JFR recording as a flame graph's input and as top-frame tables.

    bench/jfr_collapse.py RECORDING.jfr [--threads PREFIX] [--collapsed OUT.txt] [--top N]
                          [--jfr PATH]

Reads the jdk.ExecutionSample events (`jfr print`, from the JDK that made the recording or
--jfr), keeps the samples of threads whose name starts with PREFIX (all when not given), and
prints:
  - the share of samples per thread group (event loops, workers, ...);
  - the top N frames by self samples (the method running when sampled);
  - the top N frames by total samples (the method anywhere on the stack), each counted once per
    sample;
  - the top N "own code" frames by total (dev.hyperterse.*), which say where a call's time goes;
  - self samples by component: each sample goes to the component of the first frame, from the
    leaf up, that is not the JDK's (a HashMap.get under JsonObject.getValue counts as JSON).
With --requests N (the calls served while recording), also the bytes allocated per call: the
growth of every thread's allocation counter (jdk.ThreadAllocationStatistics, taken at the start
and the end of the recording) divided by N; unlike CPU time, load on the machine does not move it.
With --collapsed, also writes one line per distinct stack, root first, frames joined by ';' and
followed by the sample count: the input of flamegraph.pl / speedscope / inferno.
"""
import argparse
import collections
import json
import re
import shutil
import subprocess
import sys

FRAME = re.compile(r'^\s+(\S.*?)\s+line:\s+-?\d+')
THREAD = re.compile(r'^\s+sampledThread = "(.*)" \(javaThreadId')


def samples(recording, jfr):
    """Yields (thread name, frames leaf first) per execution sample."""
    out = subprocess.run([jfr, "print", "--events", "jdk.ExecutionSample", "--stack-depth", "512", recording],
                         check=True, capture_output=True, text=True).stdout
    thread, frames, in_stack = None, [], False
    for line in out.splitlines():
        if line.startswith("jdk.ExecutionSample"):
            thread, frames, in_stack = None, [], False
            continue
        m = THREAD.match(line)
        if m:
            thread = m.group(1)
            continue
        if line.strip() == "stackTrace = [":
            in_stack = True
            continue
        if in_stack:
            if line.strip() == "]":
                in_stack = False
                yield thread or "?", frames
                continue
            if line.strip() == "...":
                frames.append("[truncated]")
                continue
            m = FRAME.match(line)
            if m:
                frames.append(method_name(m.group(1)))


def allocated(recording, jfr):
    """Bytes each thread allocated during the recording, by thread name."""
    out = subprocess.run([jfr, "print", "--json", "--events", "jdk.ThreadAllocationStatistics", recording],
                         check=True, capture_output=True, text=True).stdout
    seen = collections.defaultdict(list)
    for event in json.loads(out)["recording"]["events"]:
        values = event["values"]
        thread = values.get("thread") or {}
        seen[(thread.get("javaName") or "?", thread.get("javaThreadId"))].append(values["allocated"])
    return {name: max(v) - min(v) for (name, _), v in seen.items()}


def allocation_sites(recording, jfr):
    """Sampled allocations (jdk.ObjectAllocationSample, weighted in bytes): (frames leaf first, weight, class)."""
    out = subprocess.run([jfr, "print", "--json", "--stack-depth", "64", "--events", "jdk.ObjectAllocationSample",
                          recording], check=True, capture_output=True, text=True).stdout
    first = set()
    # a thread's first sample weighs all it allocated since its previous one, before the
    # recording began (warm-up included): it says nothing about this recording
    for event in sorted(json.loads(out)["recording"]["events"], key=lambda e: e["values"]["startTime"]):
        values = event["values"]
        tid = (values.get("eventThread") or {}).get("javaThreadId")
        if tid not in first:
            first.add(tid)
            continue
        frames = []
        for f in ((values.get("stackTrace") or {}).get("frames") or []):
            m = f.get("method") or {}
            frames.append((m.get("type") or {}).get("name", "?").replace("/", ".") + "." + m.get("name", "?"))
        thread = (values.get("eventThread") or {}).get("javaName") or "?"
        yield thread, frames, values.get("weight", 0), ((values.get("objectClass") or {}).get("name") or "?")


def method_name(frame):
    """`pkg.Class.method(args)` without the argument list."""
    i = frame.find("(")
    return frame[:i] if i >= 0 else frame


# the first matching prefix names the component; JDK frames are skipped (their caller decides)
COMPONENTS = [
    (("io.vertx.micrometer.", "io.micrometer."), "metrics: Vert.x Micrometer"),
    (("dev.hyperterse.telemetry.",), "ours: metrics and tracing"),
    (("com.fasterxml.jackson.", "io.vertx.core.json."), "JSON (Jackson, JsonObject)"),
    (("io.vertx.pgclient.", "io.vertx.sqlclient."), "PostgreSQL client"),
    (("io.vertx.ext.web.",), "Vert.x Web (router, body handler)"),
    (("io.vertx.core.http.",), "Vert.x HTTP server"),
    (("io.netty.handler.codec.http.",), "Netty HTTP codec"),
    (("io.netty.buffer.",), "Netty buffers"),
    (("io.vertx.core.impl.future.", "io.vertx.core.Future", "io.vertx.core.Promise"), "Vert.x futures"),
    (("io.vertx.core.impl.", "io.vertx.core.internal."), "Vert.x contexts and timers"),
    (("io.vertx.core.net.", "io.netty.", "sun.nio.ch."), "Netty, NIO (channels, event loop)"),
    (("com.github.benmanes.caffeine.", "dev.hyperterse.cache."), "result cache"),
    (("dev.hyperterse.mcp.",), "ours: MCP endpoint and methods"),
    (("dev.hyperterse.pipeline.",), "ours: pipeline"),
    (("dev.hyperterse.connector.",), "ours: connectors"),
    (("dev.hyperterse.server.",), "ours: server"),
    (("dev.hyperterse.",), "ours: other"),
    (("ch.qos.logback.", "org.slf4j."), "logging"),
]
JDK = ("java.", "javax.", "jdk.", "sun.")


def component(frames):
    for frame in frames:
        for prefixes, name in COMPONENTS:
            if frame.startswith(prefixes):
                return name
        if not frame.startswith(JDK):
            return "other: " + ".".join(frame.split(".")[:3])
    return "JDK only"


def group(thread):
    for prefix, name in (("vert.x-eventloop", "event loops"), ("vert.x-worker", "workers"),
                         ("vert.x-internal-blocking", "internal blocking"), ("vert.x-acceptor", "acceptor"),
                         ("hyperterse-script", "script workers")):
        if thread.startswith(prefix):
            return name
    return "other (" + re.sub(r"[-#]?\d+$", "", thread) + ")"


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("recording")
    ap.add_argument("--threads", default="", help="keep threads whose name starts with this")
    ap.add_argument("--collapsed", help="write collapsed stacks here")
    ap.add_argument("--top", type=int, default=25)
    ap.add_argument("--jfr", default=shutil.which("jfr") or "jfr")
    ap.add_argument("--requests", type=int, help="calls served during the recording: prints bytes allocated per call")
    args = ap.parse_args()

    groups = collections.Counter()
    self_counts = collections.Counter()
    total_counts = collections.Counter()
    stacks = collections.Counter()
    components = collections.Counter()
    kept = 0
    for thread, frames in samples(args.recording, args.jfr):
        groups[group(thread)] += 1
        if not thread.startswith(args.threads) or not frames:
            continue
        kept += 1
        self_counts[frames[0]] += 1
        components[component(frames)] += 1
        for f in set(frames):
            total_counts[f] += 1
        stacks[";".join(reversed(frames))] += 1

    if args.requests:
        by_thread = allocated(args.recording, args.jfr)
        total = sum(by_thread.values())
        loops = sum(n for name, n in by_thread.items() if name.startswith(args.threads))
        print(f"allocated per call: {total / args.requests:,.0f} bytes ({loops / args.requests:,.0f} on threads "
              f"starting with '{args.threads}'), over {args.requests} calls")
        sites = collections.Counter()
        own_sites = collections.Counter()
        weight = 0
        for thread, frames, w, cls in allocation_sites(args.recording, args.jfr):
            if not thread.startswith(args.threads):
                continue
            weight += w
            site = next((f for f in frames if not f.startswith(JDK)), frames[0] if frames else "?")
            sites[site + " (" + cls.replace("/", ".") + ")"] += w
            own_sites[next((f for f in frames if f.startswith("dev.hyperterse.")), "(not under our code)")] += w
        scale = loops / max(1, weight)
        print(f"\ntop {args.top} allocation sites (first frame outside the JDK, class), bytes per call (sampled, "
              f"scaled to the measured total)")
        for site, w in sites.most_common(args.top):
            print(f"  {w * scale / args.requests:9,.0f}  {site}")
        print(f"\ntop {args.top} allocations by our nearest frame, bytes per call")
        for site, w in own_sites.most_common(args.top):
            print(f"  {w * scale / args.requests:9,.0f}  {site}")
        print()
    all_samples = sum(groups.values())
    print(f"{all_samples} execution samples; by thread group:")
    for name, n in groups.most_common():
        print(f"  {n:7d} {100.0 * n / max(1, all_samples):5.1f}%  {name}")
    print(f"\n{kept} samples of threads starting with '{args.threads}'")

    def table(title, counter, keep=lambda f: True):
        print(f"\n{title}")
        shown = 0
        for frame, n in counter.most_common():
            if not keep(frame):
                continue
            print(f"  {n:7d} {100.0 * n / max(1, kept):5.1f}%  {frame}")
            shown += 1
            if shown >= args.top:
                break

    table("self samples by component", components)
    table(f"top {args.top} by self samples", self_counts)
    table(f"top {args.top} by total samples", total_counts)
    table(f"top {args.top} of dev.hyperterse by total samples", total_counts, lambda f: f.startswith("dev.hyperterse."))
    if args.collapsed:
        with open(args.collapsed, "w") as out:
            for stack, n in stacks.most_common():
                out.write(f"{stack} {n}\n")
        print(f"\ncollapsed stacks: {args.collapsed} ({len(stacks)} distinct)", file=sys.stderr)


if __name__ == "__main__":
    main()
