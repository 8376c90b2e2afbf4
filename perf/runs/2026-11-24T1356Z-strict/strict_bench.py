#!/usr/bin/env python3
"""Strict sanitizing against the default job, end to end: `feedmill -q -j1` with and without
`--sanitize strict`, on the WARC.gz of the corpus x10 and on `corpus/real` named 10 times,
interleaved rounds, medians of /usr/bin/time (perf/e2e_bench.py's `timed`). Not a timed test.

Usage (from the repository root, after `cargo build --release --bin feedmill`):
  python3 perf/runs/<this run>/strict_bench.py --rounds 3 [--binary PATH]
"""
import argparse
import os
import shutil
import statistics
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
from e2e_bench import ROOT, timed  # noqa: E402


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--archive", default="/tmp/feedmill-corpus10.warc.gz")
    ap.add_argument("--binary", default=os.path.join(ROOT, "target/release/feedmill"))
    a = ap.parse_args()
    fm = os.path.join(tempfile.mkdtemp(prefix="feedmill-strict-"), "feedmill")
    shutil.copy(a.binary, fm)
    inputs = {"warc.gz": [a.archive], "dir x10": ["corpus/real"] * 10}
    modes = {"default": [], "strict": ["--sanitize", "strict"]}
    res = {}
    for r in range(a.rounds):
        for inp, files in inputs.items():
            for mode, flags in modes.items():
                load = open("/proc/loadavg").read().split()[0]
                m = timed([fm, "-q", "-j1"] + flags + files)
                res.setdefault((inp, mode), []).append(m)
                print(f"round {r} {inp:8} {mode:8} wall {m[0]:.2f} user {m[1]:.2f} "
                      f"sys {m[2]:.2f} rss {m[3]:.0f} MB load {load}", flush=True)
    print("\n| input | job | wall s | CPU s (user+sys) | strict/default wall | strict/default CPU |")
    print("|---|---|---|---|---|---|")
    for inp in inputs:
        med = {mode: [statistics.median(x[i] for x in res[(inp, mode)]) for i in range(3)]
               for mode in modes}
        for mode in modes:
            w, u, s = med[mode]
            dw, du, ds = med["default"]
            print(f"| {inp} | -j1 {mode} | {w:.2f} | {u + s:.2f} | {w / dw:.2f}x | "
                  f"{(u + s) / (du + ds):.2f}x |")


if __name__ == "__main__":
    main()
