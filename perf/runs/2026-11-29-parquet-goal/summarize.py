#!/usr/bin/env python3
"""Medians per variant of variants.sh output: user+sys, peak RSS (MiB) min/median/max, bytes."""
import statistics, sys
rows = {}
order = []
for line in open(sys.argv[1]):
    p = line.split()
    if len(p) != 7:
        continue
    name = p[0]
    if name not in rows:
        order.append(name)
    rows.setdefault(name, []).append((float(p[2]), float(p[3]), float(p[5]) / 1024, int(p[6])))
base = None
print("| variant | runs | user | sys | user+sys | × JSONL | peak RSS MiB (min / median / max) | bytes |")
print("|---|---:|---:|---:|---:|---:|---|---:|")
for name in order:
    r = rows[name]
    u = statistics.median(x[0] for x in r)
    s = statistics.median(x[1] for x in r)
    us = statistics.median(x[0] + x[1] for x in r)
    if base is None and name.startswith("jsonl"):
        base = us
    m = sorted(x[2] for x in r)
    ratio = f"{us / base:.2f}" if base else "-"
    print(f"| {name} | {len(r)} | {u:.2f} | {s:.2f} | {us:.2f} | {ratio} | {m[0]:.0f} / {statistics.median(m):.0f} / {m[-1]:.0f} | {r[0][3]:,} |")
