#!/usr/bin/env python3
"""Parquet vs JSON Lines, end to end, with the release `feedmill` CLI: the same inputs as
perf/e2e_bench.py ((a) the corpus x10 as one WARC.gz, (b) `corpus/real` named 10 times),
written once as JSON Lines (`-o /dev/null`) and once as Parquet (`--format parquet -o
/dev/null`). Not a timed test.

Interleaved rounds (every job once per round, the order reversed every other round) so
load changes hit all jobs alike; /usr/bin/time gives wall, user, sys, peak RSS and minor page
faults. Reported: medians per job with the CPU's spread (least-most), and Parquet / JSON Lines
CPU (user + sys) per binary as the median of the per-round ratios (both runs of a round met
about the same machine). Output sizes come from one extra run of each writing to a file.

Usage:
  python3 perf/parquet_bench.py                   # 5 rounds, records perf/runs/<UTC>-parquet/
  python3 perf/parquet_bench.py --rounds 8 --threads 2 --inputs warc.gz \
      --archive /tmp/corpus10.warc.gz --baseline /tmp/feedmill-before --to-file --note "..."
`--baseline BIN` adds that binary's JSON Lines and Parquet jobs (e.g. a build before a
change), so each binary's ratio comes from its own rounds. `--codecs snappy,none` runs the
Parquet jobs once per `--compression` codec; the default is the CLI's default codec alone.
`--inputs` picks the inputs (`warc.gz`, `dir`; both by default). `--to-file` writes each
output to a scratch file, as a user's job does, instead of /dev/null.
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
    ap.add_argument("--baseline", default=None,
                    help="another feedmill binary (its JSON Lines and Parquet jobs)")
    ap.add_argument("--threads", default=None, help="-j for every job (default: all CPUs)")
    ap.add_argument("--feedmill", default=None, help="the binary to run (default: cargo build)")
    ap.add_argument("--codecs", default=None,
                    help="comma-separated --compression codecs for the Parquet jobs")
    ap.add_argument("--inputs", default="warc.gz,dir",
                    help="comma-separated: warc.gz (the corpus x10 archive), dir (corpus/real x10)")
    ap.add_argument("--to-file", action="store_true",
                    help="write each output to a scratch file instead of /dev/null")
    ap.add_argument("--note", default="")
    ap.add_argument("--out", default=None)
    a = ap.parse_args()

    if not a.feedmill:
        sh(["cargo", "build", "--release", "--bin", "feedmill"])
    tmp = tempfile.mkdtemp(prefix="feedmill-pq-")
    wanted = a.inputs.split(",")
    if a.archive is None and "warc.gz" in wanted:
        a.archive = os.path.join(tmp, "corpus10.warc.gz")
        sh([sys.executable, "perf/gen_archive.py", "--records", "2870", "-o", a.archive])
    binaries = {"": os.path.join(tmp, "feedmill")}
    shutil.copy(a.feedmill or os.path.join(ROOT, "target", "release", "feedmill"), binaries[""])
    if a.baseline:
        binaries[" (baseline)"] = a.baseline
    j = ["-j", a.threads] if a.threads else []
    all_inputs = {"warc.gz": [a.archive], "dir": ["corpus/real"] * 10}
    inputs = {name: all_inputs[name] for name in wanted}
    codecs = a.codecs.split(",") if a.codecs else [None]
    jobs = {}
    # Each Parquet job with its binary's JSON Lines job, the denominator of its ratio.
    pairs = []
    for suffix, fm in binaries.items():
        jobs[f"jsonl{suffix}"] = lambda out, inp, fm=fm: [fm, "-q", *j, "-o", out, *inp]
        for codec in codecs:
            c = ["--compression", codec] if codec else []
            name = f"parquet {codec}" if codec else "parquet"
            jobs[f"{name}{suffix}"] = lambda out, inp, fm=fm, c=c: [
                fm, "-q", *j, "--format", "parquet", *c, "-o", out, *inp]
            pairs.append((f"{name}{suffix}", f"jsonl{suffix}"))

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
    raw.write("round,input,job,wall_s,user_s,sys_s,rss_mb,minor_faults,load1\n")
    out = os.path.join(tmp, "out") if a.to_file else os.devnull
    res = {}
    for r in range(a.rounds):
        order = list(jobs.items()) if r % 2 == 0 else list(reversed(jobs.items()))
        for iname, inp in inputs.items():
            for jname, argv in order:
                m = timed(argv(out, inp), out)
                load = os.getloadavg()[0]
                raw.write(f"{r},{iname},{jname},{m[0]},{m[1]},{m[2]},{m[3]:.1f},{m[4]},"
                          f"{load:.2f}\n")
                raw.flush()
                res.setdefault((iname, jname), []).append(m)
    raw.close()

    med = statistics.median
    cpu = lambda m: m[1] + m[2]
    where = "to a file" if a.to_file else "to /dev/null"
    threads = f"-j{a.threads}" if a.threads else "all CPUs"
    lines = [f"# Parquet vs JSON Lines ({a.rounds} interleaved rounds, medians, {threads}, "
             f"output {where})", ""]
    if a.note:
        lines += [a.note, ""]
    lines += ["| input | job | wall s | CPU s (least-most) | peak RSS MB | minor faults | output MB |",
              "|---|---|---|---|---|---|---|"]
    for iname in inputs:
        for jname in jobs:
            ms = res[(iname, jname)]
            cpus = [cpu(m) for m in ms]
            lines.append(
                f"| {iname} | {jname} | {med([m[0] for m in ms]):.2f} | "
                f"{med(cpus):.2f} ({min(cpus):.2f}-{max(cpus):.2f}) | "
                f"{med([m[3] for m in ms]):.0f} | {med([m[4] for m in ms]) / 1000:.1f} K | "
                f"{sizes[(iname, jname)]:.1f} |")
    lines += ["", "Parquet / JSON Lines CPU, median of the per-round ratios (least-most):", ""]
    for iname in inputs:
        for jname, jsonl in pairs:
            ratios = [cpu(p) / cpu(q) for p, q in zip(res[(iname, jname)], res[(iname, jsonl)])]
            lines.append(f"- {iname}, {jname}: {med(ratios):.2f}x "
                         f"({min(ratios):.2f}-{max(ratios):.2f})")
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
