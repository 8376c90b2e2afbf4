#!/usr/bin/env python3
"""The CLI job (JSON Lines to /dev/null, --quiet) at -j1 and -j2 over the same records as
WARC.gz, ARC.gz and WARC.zst (perf/gen_archive.py), 3 interleaved rounds; medians of wall,
CPU (user+sys), peak RSS and MB/s of input (compressed bytes / wall).

Usage: python3 perf/runs/2026-11-29-revisits/formats.py FEEDMILL [RECORDS] [ROUNDS]
"""
import os
import statistics
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
cli = os.path.abspath(sys.argv[1])
records = sys.argv[2] if len(sys.argv) > 2 else "2870"
rounds = int(sys.argv[3]) if len(sys.argv) > 3 else 3
tmp = tempfile.mkdtemp()
files = {}
for name, extra in [("WARC.gz", []), ("ARC.gz", ["--format", "arc"]), ("WARC.zst", ["--compression", "zst"])]:
    path = os.path.join(tmp, "corpus." + name.lower())
    subprocess.run([sys.executable, os.path.join(ROOT, "perf", "gen_archive.py"), "--records", records,
                    "-o", path, *extra], check=True, stderr=subprocess.DEVNULL)
    files[name] = path
res = {}
for r in range(rounds):
    for name, path in files.items():
        for j in (1, 2):
            t = os.path.join(tmp, "time")
            subprocess.run(["/usr/bin/time", "-f", "%e %U %S %M", "-o", t, cli, f"-j{j}", "--quiet", path,
                            "-o", "/dev/null"], check=True)
            wall, user, sys_, rss = open(t).read().split()[-4:]
            res.setdefault((name, j), []).append((float(wall), float(user) + float(sys_), int(rss) / 1024))
print(f"records: {records} responses per archive; {rounds} interleaved rounds; medians")
print("| archive | size (MB) | -j | wall (s) | CPU (s) | peak RSS (MB) | MB/s of input |")
print("|---|---:|---:|---:|---:|---:|---:|")
for (name, j), runs in res.items():
    size = os.path.getsize(files[name]) / 1e6
    wall = statistics.median(x[0] for x in runs)
    cpu = statistics.median(x[1] for x in runs)
    rss = statistics.median(x[2] for x in runs)
    print(f"| {name} | {size:.1f} | {j} | {wall:.2f} | {cpu:.2f} | {rss:.0f} | {size / wall:.1f} |")
for p in files.values():
    os.remove(p)
