#!/usr/bin/env python3
"""The end-to-end cost of a change to the record, binary against binary: two `feedmill`
builds (say main's and a branch's, built in separate target dirs) on the corpus WARC.gz job
(`feedmill -q -j1 ARCHIVE`, and with `--extract`), output to /dev/null. Interleaved rounds:
each round runs the four jobs once, in an order that alternates between rounds, so load
changes hit both binaries alike. Measured by /usr/bin/time (wall, user, sys, peak RSS);
reported: per job the medians and the median over rounds of the per-round ratio new / base
of CPU time (user + sys). Output bytes of each job are counted once. --callgrind adds the
instructions each binary executes on a smaller archive (load-independent).

Usage:
  python3 perf/capture_cost.py --base /tmp/main-target/release/feedmill \\
      --new target/release/feedmill --rounds 9 --out perf/runs/<UTC>-capture-cost
"""
import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "perf"))
from e2e_bench import instructions, timed  # noqa: E402


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--base", required=True)
    ap.add_argument("--new", required=True)
    ap.add_argument("--rounds", type=int, default=7)
    ap.add_argument("--archive", default="/tmp/feedmill-corpus10.warc.gz")
    ap.add_argument("--small", default="/tmp/feedmill-corpus1.warc.gz")
    ap.add_argument("--callgrind", action="store_true")
    ap.add_argument("--out", required=True)
    a = ap.parse_args()
    for path, n in [(a.archive, 2870), (a.small, 287)]:
        if not os.path.exists(path):
            subprocess.run([sys.executable, "perf/gen_archive.py", "--records", str(n), "-o", path],
                           check=True, cwd=ROOT)
    # Private copies: a shared target dir may be rebuilt mid-run.
    tmp = tempfile.mkdtemp(prefix="feedmill-capture-cost-")
    bins = {}
    for name in ("base", "new"):
        bins[name] = os.path.join(tmp, f"feedmill-{name}")
        shutil.copy(getattr(a, name), bins[name])
    modes = {"default": [], "--extract": ["--extract"]}
    os.makedirs(a.out, exist_ok=True)
    with open(os.path.join(a.out, "raw.csv"), "w") as raw:
        raw.write("round,mode,binary,wall_s,user_s,sys_s,peak_rss_mb,load1\n")
        res = {}
        for r in range(a.rounds):
            order = ["base", "new"] if r % 2 == 0 else ["new", "base"]
            for mode, flags in modes.items():
                for b in order:
                    t = timed([bins[b], "-q", "-j1"] + flags + [a.archive])
                    load = open("/proc/loadavg").read().split()[0]
                    raw.write(f"{r},{mode},{b},{t[0]:.3f},{t[1]:.3f},{t[2]:.3f},{t[3]:.1f},{load}\n")
                    raw.flush()
                    res.setdefault((mode, b), []).append(t)
    lines = [f"archive: {a.archive} ({os.path.getsize(a.archive)} bytes); {a.rounds} interleaved rounds; -j1; output to /dev/null",
             f"base: {a.base}", f"new: {a.new}", "",
             "| job | binary | wall s (median) | CPU s (median) | peak RSS MB (median) | output bytes |",
             "| --- | --- | --- | --- | --- | --- |"]
    for mode, flags in modes.items():
        for b in ("base", "new"):
            ts = res[(mode, b)]
            out = subprocess.run([bins[b], "-q", "-j1"] + flags + [a.archive], cwd=ROOT,
                                 check=True, capture_output=True).stdout
            lines.append(f"| {mode} | {b} | {statistics.median(t[0] for t in ts):.3f} | "
                         f"{statistics.median(t[1] + t[2] for t in ts):.3f} | "
                         f"{statistics.median(t[3] for t in ts):.1f} | {len(out)} |")
    lines += ["", "| job | CPU new / base (median of per-round ratios) | wall new / base |", "| --- | --- | --- |"]
    for mode in modes:
        cpu = [(n[1] + n[2]) / (b[1] + b[2]) for n, b in zip(res[(mode, "new")], res[(mode, "base")])]
        wall = [n[0] / b[0] for n, b in zip(res[(mode, "new")], res[(mode, "base")])]
        lines.append(f"| {mode} | {statistics.median(cpu):.3f} | {statistics.median(wall):.3f} |")
    if a.callgrind:
        lines += ["", f"instructions (callgrind) on {a.small} ({os.path.getsize(a.small)} bytes):", "",
                  "| job | base | new | new / base |", "| --- | --- | --- | --- |"]
        for mode, flags in modes.items():
            i = {b: instructions([bins[b], "-q", "-j1"] + flags + [a.small]) for b in ("base", "new")}
            lines.append(f"| {mode} | {i['base']} | {i['new']} | {i['new'] / i['base']:.4f} |")
    text = "\n".join(lines) + "\n"
    with open(os.path.join(a.out, "summary.md"), "w") as f:
        f.write(text)
    print(text)
    shutil.rmtree(tmp)


if __name__ == "__main__":
    main()
