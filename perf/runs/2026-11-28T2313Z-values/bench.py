#!/usr/bin/env python3
"""Interleaved rounds of the release CLI at -j1 over the corpus WARC: CPU (user+sys) and wall
of main's binary, this branch's, and this branch's with --extensions none; medians."""
import os, resource, statistics, subprocess, sys, time
warc = sys.argv[1]; rounds = int(sys.argv[2]); main_bin, new_bin = sys.argv[3], sys.argv[4]
jobs = {"main": [main_bin, "-j1", warc], "branch": [new_bin, "-j1", warc],
        "branch --extensions none": [new_bin, "-j1", "--extensions", "none", warc]}
res = {k: [] for k in jobs}
for i in range(rounds):
    names = list(jobs)
    names = names[i % 3:] + names[:i % 3]
    for k in names:
        r0 = resource.getrusage(resource.RUSAGE_CHILDREN); t0 = time.perf_counter()
        subprocess.run(jobs[k], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
        t1 = time.perf_counter(); r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu = (r1.ru_utime - r0.ru_utime) + (r1.ru_stime - r0.ru_stime)
        res[k].append((cpu, t1 - t0))
    print(f"round {i+1}: " + ", ".join(f"{k} {res[k][-1][0]:.3f}" for k in jobs), flush=True)
base = res["main"]
print("\n| job | CPU s (median) | min CPU s | wall s (median) | CPU vs main (median of per-round ratios) |")
print("|---|---:|---:|---:|---:|")
for k, v in res.items():
    ratios = [c / b[0] for (c, _), b in zip(v, base)]
    print(f"| {k} | {statistics.median(c for c, _ in v):.3f} | {min(c for c, _ in v):.3f} | "
          f"{statistics.median(w for _, w in v):.3f} | {statistics.median(ratios):.3f} |")
print(f"\nload average at end: {os.getloadavg()}")
