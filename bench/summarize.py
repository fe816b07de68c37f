#!/usr/bin/env python3
"""Turns bench/script-calls.sh logs into a Markdown table of medians and ratios.

usage: bench/summarize.py interpreted.log [optimized.log ...]
"""
import statistics
import sys
from collections import defaultdict

runs = defaultdict(list)  # (mode, tool, conc) -> [(rps, p50, p99)]
headers = []
for path in sys.argv[1:]:
    for line in open(path):
        if line.startswith('#'):
            headers.append(line.strip('# \n'))
            continue
        parts = line.split()
        if len(parts) != 7:
            continue
        mode, tool, conc, rps, p50, p99, errors = parts
        if int(errors) != 0:
            print(f"warning: {errors} failed responses in {line.strip()}", file=sys.stderr)
        runs[(mode, tool, conc)].append((float(rps), float(p50), float(p99)))

for h in headers:
    print(f"- `{h}`")
print()
print("| mode | tool | connections | calls/s (median) | p50 ms (median) | p99 ms (median) | runs |")
print("|---|---|---|---|---|---|---|")
med = {}
for (mode, tool, conc), values in sorted(runs.items()):
    rps = statistics.median(v[0] for v in values)
    p50 = statistics.median(v[1] for v in values)
    p99 = statistics.median(v[2] for v in values)
    med[(mode, tool, conc)] = (rps, p50, p99)
    print(f"| {mode} | {tool} | {conc[1:]} | {rps:,.0f} | {p50:.3f} | {p99:.2f} | {len(values)} |")
print()
print("| mode | tool vs get-customer (DB point query) | calls/s ratio at 8 connections | p50 added per call at 1 connection |")
print("|---|---|---|---|")
for mode in sorted({k[0] for k in med}):
    base = {c: med.get((mode, "get-customer", c)) for c in ("c1", "c8")}
    for tool in ("hello", "crunch", "get-customer-mapped"):
        t8, t1 = med.get((mode, tool, "c8")), med.get((mode, tool, "c1"))
        if not (t8 and t1 and base["c8"] and base["c1"]):
            continue
        print(f"| {mode} | {tool} | {t8[0] / base['c8'][0]:.2f} | {t1[1] - base['c1'][1]:+.3f} ms |")
