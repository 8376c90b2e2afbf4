#!/usr/bin/env python3
"""Prints, per campaign log, its last libFuzzer status line, final stats and time line."""
import os, re, sys, tempfile
FC = os.environ.get("FC", os.path.join(tempfile.gettempdir(), "fc"))
for t in sys.argv[1:]:
    log = open(f"{FC}/{t}.log", errors="replace").read().splitlines()
    meta = open(f"{FC}/{t}.meta").read().strip().replace("\n", "; ")
    status = [l for l in log if re.match(r"#\d+\s", l)]
    keep = status[-1:] + [l for l in log if l.startswith(("stat::", "time wall", "SUMMARY", "thread '"))]
    print(f"{t}: {meta}")
    for l in keep:
        print("    " + l[:200])
