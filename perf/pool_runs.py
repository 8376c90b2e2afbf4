#!/usr/bin/env python3
"""Pools the rounds of several `perf/e2e_bench.py` runs (their `raw.csv`) and prints, per
input, the medians of the per-round ratios the summaries give, over all rounds together.

Usage: python3 perf/pool_runs.py perf/runs/2026-11-27-e2e/0652Z perf/runs/2026-11-27-e2e/0656Z perf/runs/2026-11-27-e2e/0658Z
"""
import csv
import statistics
import sys

CEILING = "2 x feedmill -j1 on halves at once"
WRITE_ONLY = "write as many bytes of zeros"


def main(dirs):
    rows = {}
    for d in dirs:
        for r in csv.DictReader(open(f"{d}/raw.csv")):
            rows[(r["input"], r["job"], d, r["round"])] = r
    cpu = lambda r: float(r["user_s"]) + float(r["sys_s"])
    wall = lambda r: float(r["wall_s"])
    for inp in sorted({k[0] for k in rows}):
        rounds = sorted({(k[2], k[3]) for k in rows if k[0] == inp})
        job = lambda name: [rows[(inp, name, d, n)] for d, n in rounds]
        peer, j1, j2 = job("feed-rs"), job("feedmill -j1"), job("feedmill -j2")
        strict = job("feedmill -j1 --sanitize strict")
        pair = job(CEILING) if all((inp, CEILING, d, n) in rows for d, n in rounds) else None
        med = lambda xs: round(statistics.median(xs), 2)
        print(f"{inp}: {len(rounds)} rounds; feed-rs/feedmill -j1 wall "
              f"{med(wall(p) / wall(f) for p, f in zip(peer, j1))}x, CPU "
              f"{med(cpu(p) / cpu(f) for p, f in zip(peer, j1))}x; -j2 vs -j1 wall "
              f"{med(wall(a) / wall(b) for a, b in zip(j1, j2))}x; strict CPU "
              f"{med(cpu(s) / cpu(f) for s, f in zip(strict, j1))}x; sys/user -j1 "
              f"{med(float(f['sys_s']) / float(f['user_s']) for f in j1)}")
        if all((inp, WRITE_ONLY, d, n) in rows for d, n in rounds):
            zeros = job(WRITE_ONLY)
            print(f"  writing as many bytes of zeros: system time "
                  f"{med(float(z['sys_s']) / float(f['user_s']) for z, f in zip(zeros, j1))} of "
                  f"-j1's user time")
        if pair:
            tax = med(cpu(p) / cpu(f) for p, f in zip(pair, j1))
            print(f"  two -j1 at once on halves: CPU {tax}x one -j1 (caps -j2 at "
                  f"{round(2 / tax, 2)}x); -j2 CPU {med(cpu(a) / cpu(b) for a, b in zip(j2, pair))}x "
                  f"theirs")


if __name__ == "__main__":
    main(sys.argv[1:])
