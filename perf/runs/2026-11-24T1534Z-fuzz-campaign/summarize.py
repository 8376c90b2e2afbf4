#!/usr/bin/env python3
"""Summarizes $FC (default $TMPDIR/fc)/<target>.{meta,log} into a markdown table (one row per target)."""
import re, sys, os, tempfile
FC = os.environ.get("FC", os.path.join(tempfile.gettempdir(), "fc"))
order = sys.argv[1:]
print("| target | start (UTC) | wall s | CPU s (user+sys) | executions | exec/s | cov / ft at end | corpus start → end | peak RSS MB | crashes / timeouts / OOMs |")
print("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |")
for t in order:
    meta = open(f"{FC}/{t}.meta").read()
    log = open(f"{FC}/{t}.log", errors="replace").read()
    start = re.search(r"start (\S+) corpus (\d+)", meta)
    end = re.search(r"exit (\d+) end (\S+) corpus (\d+)", meta)
    tm = re.search(r"time wall ([\d.]+) user ([\d.]+) sys ([\d.]+) maxrss_kb (\d+)", log)
    units = re.search(r"stat::number_of_executed_units: (\d+)", log)
    eps = re.search(r"stat::average_exec_per_sec:\s+(\d+)", log)
    rss = re.search(r"stat::peak_rss_mb:\s+(\d+)", log)
    last = [l for l in log.splitlines() if re.match(r"#\d+\s", l)]
    cov = re.search(r"cov: (\d+) ft: (\d+)", last[-1]) if last else None
    crashes = len(re.findall(r"Test unit written to \S*/(?:crash|leak)-", log))
    timeouts = len(re.findall(r"ALARM: working on the last Unit", log))
    ooms = len(re.findall(r"out-of-memory", log))
    arts = len(os.listdir(f"{FC}/art/{t}")) if os.path.isdir(f"{FC}/art/{t}") else 0
    print(f"| `{t}` | {start.group(1)[11:16] if start else '?'} | {float(tm.group(1)):.0f} | {float(tm.group(2))+float(tm.group(3)):.0f} | {int(units.group(1)):,} | {eps.group(1)} | {cov.group(1)} / {cov.group(2)} | {start.group(2)} → {end.group(3) if end else '?'} | {rss.group(1) if rss else '?'} | {crashes} / {timeouts} / {ooms} (artifacts: {arts}) |" if tm and units else f"| `{t}` | running or failed |")
