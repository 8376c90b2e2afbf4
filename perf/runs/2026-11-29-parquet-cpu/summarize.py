#!/usr/bin/env python3
"""Medians of interleaved rounds: lines `round name user sys wall peakKiB [faults] bytes load`
(rounds.sh writes them; rounds-levers.txt has no fault count). The first job named is
the JSON Lines job every ratio is taken against."""
import statistics
import sys

for path in sys.argv[1:]:
    rows = {}
    for line in open(path):
        f = line.split()
        if len(f) < 8:
            continue
        name, user, sys_, peak = f[1], float(f[2]), float(f[3]), int(f[5])
        faults = int(f[6]) if len(f) == 9 else None
        size = int(f[-2])
        rows.setdefault(name, []).append((user, sys_, user + sys_, peak / 1024, faults, size))
    # The first job of a round is the JSON Lines job the others are compared with.
    base = statistics.median(r[2] for r in next(iter(rows.values())))
    print(f"## {path}")
    print("| job | n | user | sys | user+sys | × JSONL | peak MiB (min / median / max) | faults (median) | bytes |")
    print("|---|---:|---:|---:|---:|---:|---|---:|---:|")
    for name, rs in rows.items():
        med = lambda i: statistics.median(r[i] for r in rs)
        peaks = sorted(r[3] for r in rs)
        faults = "" if rs[0][4] is None else f"{med(4):,.0f}"
        print(f"| {name} | {len(rs)} | {med(0):.2f} | {med(1):.2f} | {med(2):.2f} | {med(2) / base:.2f} | "
              f"{peaks[0]:.0f} / {statistics.median(peaks):.0f} / {peaks[-1]:.0f} | {faults} | {rs[0][5]:,} |")
    print()
