#!/usr/bin/env python3
"""Parquet vs JSON Lines, end to end, with the release `feedmill` CLI: the same inputs as
perf/e2e_bench.py ((a) the corpus x10 as one WARC.gz, (b) `corpus/real` named 10 times),
written once as JSON Lines (`-o /dev/null`) and once as Parquet (`--format parquet -o
/dev/null`). Not a timed test.

Interleaved rounds (every job once per round, fixed order) so load changes hit all jobs
alike; /usr/bin/time gives wall, user, sys, peak RSS; reported: medians per job and the
ratio JSONL / Parquet (wall, CPU = user + sys; > 1 means Parquet is faster). Output sizes
come from one extra run of each writing to a file.

Usage:
  python3 perf/parquet_bench.py                   # 5 rounds, records perf/runs/<UTC>-parquet/
  python3 perf/parquet_bench.py --rounds 3 --baseline /tmp/old-feedmill --note "..."
`--baseline BIN` adds that binary's Parquet job (e.g. a build before a change).
`--codecs snappy,none` runs the Parquet job (and the baseline's) once per `--compression`
codec; the default is the CLI's default codec alone.
"""
import argparse
import datetime
import os
import shutil
import statistics
import subprocess
import sys
import tempfile

# The same run and timing helpers as the JSONL end-to-end bench (this directory is on
# sys.path when the script is run as `python3 perf/parquet_bench.py`).
from e2e_bench import ROOT, sh, timed


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--archive", default=None,
                    help="the corpus x10 WARC.gz (default: generated into a scratch directory)")
    ap.add_argument("--baseline", default=None, help="another feedmill binary (Parquet job)")
    ap.add_argument("--threads", default=None, help="-j for every job (default: all CPUs)")
    ap.add_argument("--feedmill", default=None, help="the binary to run (default: cargo build)")
    ap.add_argument("--codecs", default=None,
                    help="comma-separated --compression codecs for the Parquet jobs")
    ap.add_argument("--note", default="")
    ap.add_argument("--out", default=None)
    a = ap.parse_args()

    if not a.feedmill:
        sh(["cargo", "build", "--release", "--bin", "feedmill"])
    tmp = tempfile.mkdtemp(prefix="feedmill-pq-")
    if a.archive is None:
        a.archive = os.path.join(tmp, "corpus10.warc.gz")
        sh([sys.executable, "perf/gen_archive.py", "--records", "2870", "-o", a.archive])
    fm = os.path.join(tmp, "feedmill")
    shutil.copy(a.feedmill or os.path.join(ROOT, "target", "release", "feedmill"), fm)
    j = ["-j", a.threads] if a.threads else []
    inputs = {"warc.gz": [a.archive], "dir x10": ["corpus/real"] * 10}
    jobs = {"jsonl": lambda out, inp: [fm, "-q", *j, "-o", out, *inp]}
    codecs = a.codecs.split(",") if a.codecs else [None]
    for codec in codecs:
        c = ["--compression", codec] if codec else []
        name = f"parquet {codec}" if codec else "parquet"
        jobs[name] = lambda out, inp, c=c: [
            fm, "-q", *j, "--format", "parquet", *c, "-o", out, *inp]
        if a.baseline:
            jobs[f"{name} (baseline)"] = lambda out, inp, c=c: [
                a.baseline, "-q", *j, "--format", "parquet", *c, "-o", out, *inp]

    sizes = {}
    for iname, inp in inputs.items():
        for jname, argv in jobs.items():
            out = os.path.join(tmp, "out")
            sh(argv(out, inp), stdout=subprocess.DEVNULL)
            sizes[(iname, jname)] = os.path.getsize(out) / 1e6
            os.remove(out)

    stamp = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H%MZ")
    run_dir = a.out or os.path.join(ROOT, "perf", "runs", f"{stamp}-parquet")
    os.makedirs(run_dir, exist_ok=True)
    raw = open(os.path.join(run_dir, "raw.csv"), "w")
    raw.write("round,input,job,wall_s,user_s,sys_s,rss_mb,load1\n")
    res = {}
    for r in range(a.rounds):
        for iname, inp in inputs.items():
            for jname, argv in jobs.items():
                m = timed(argv("/dev/null", inp))
                load = os.getloadavg()[0]
                raw.write(f"{r},{iname},{jname},{m[0]},{m[1]},{m[2]},{m[3]:.1f},{load:.2f}\n")
                raw.flush()
                res.setdefault((iname, jname), []).append(m)
    raw.close()

    med = lambda xs: statistics.median(xs)
    lines = [f"# Parquet vs JSON Lines ({a.rounds} interleaved rounds, medians)", ""]
    if a.note:
        lines += [a.note, ""]
    lines += ["| input | job | wall s | CPU s | peak RSS MB | output MB |", "|---|---|---|---|---|---|"]
    for iname in inputs:
        for jname in jobs:
            ms = res[(iname, jname)]
            lines.append(
                f"| {iname} | {jname} | {med([m[0] for m in ms]):.2f} | "
                f"{med([m[1] + m[2] for m in ms]):.2f} | {med([m[3] for m in ms]):.0f} | "
                f"{sizes[(iname, jname)]:.1f} |")
    lines += ["", "JSONL / Parquet (> 1: Parquet faster):", ""]
    for iname in inputs:
        for jname in jobs:
            if jname == "jsonl":
                continue
            jl, pq = res[(iname, "jsonl")], res[(iname, jname)]
            w = med([m[0] for m in jl]) / med([m[0] for m in pq])
            c = med([m[1] + m[2] for m in jl]) / med([m[1] + m[2] for m in pq])
            lines.append(f"- {iname}, {jname}: wall {w:.2f}x, CPU {c:.2f}x")
    loads = [float(l.split(",")[-1]) for l in
             open(os.path.join(run_dir, "raw.csv")).read().splitlines()[1:]]
    lines += ["", f"load average (1 min) during runs: {min(loads):.1f}-{max(loads):.1f} "
              f"on {os.cpu_count()} CPUs"]
    summary = "\n".join(lines) + "\n"
    open(os.path.join(run_dir, "summary.md"), "w").write(summary)
    commit = subprocess.run(["git", "rev-parse", "HEAD"], cwd=ROOT, capture_output=True,
                            text=True).stdout.strip()
    dirty = subprocess.run(["git", "diff", "--quiet"], cwd=ROOT).returncode != 0
    with open(os.path.join(run_dir, "env.txt"), "w") as env:
        env.write(f"commit: {commit}{' (dirty)' if dirty else ''}\n")
        env.write(f"command: {' '.join(sys.argv)}\n")
    print(summary)
    shutil.rmtree(tmp)


if __name__ == "__main__":
    main()
