#!/usr/bin/env python3
"""End-to-end benchmark: the user's job (archive or directory in, JSON Lines out) with the
release `feedmill` CLI against `feedrs-jsonl` (feed-rs + serde_json doing the same job,
perf/peers/src/bin/feedrs_jsonl.rs). Not a timed test.

Inputs: (a) a WARC.gz of the corpus x10 (perf/gen_archive.py --records 2870, one gzip member
per record, ~8% of bodies gzip+chunked, ~10% non-200 or not feeds), (b) `corpus/real` named
10 times on the command line. Output goes to /dev/null.

Interleaved rounds: each round runs every job once, in a fixed order, so load changes hit all
jobs alike. Each run is measured by /usr/bin/time: wall, user, sys, peak RSS. Reported:
medians per job, and ratios feed-rs / feedmill (wall, CPU = user+sys).

Usage:
  python3 perf/e2e_bench.py                 # 5 rounds, records perf/runs/<UTC time>-e2e/
  python3 perf/e2e_bench.py --rounds 9 --note "quiet machine"
  python3 perf/e2e_bench.py --peer /path/to/feedrs-jsonl   # reuse a built peer
Builds: `cargo build --release --bin feedmill` and the peer
(`cargo build --release --manifest-path perf/peers/Cargo.toml --bin feedrs-jsonl`).
"""
import argparse
import datetime
import os
import shutil
import statistics
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def sh(cmd, **kw):
    return subprocess.run(cmd, check=True, cwd=ROOT, **kw)


def timed(argv):
    with tempfile.NamedTemporaryFile("r", suffix=".time") as t:
        with open(os.devnull, "wb") as null:
            subprocess.run(["/usr/bin/time", "-f", "%e %U %S %M", "-o", t.name] + argv,
                           check=True, cwd=ROOT, stdout=null)
        wall, user, sys_, rss = t.read().split()[-4:]
    return float(wall), float(user), float(sys_), int(rss) / 1024.0


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--archive", default="/tmp/feedmill-corpus10.warc.gz")
    ap.add_argument("--note", default="")
    ap.add_argument("--out", default=None, help="run directory (default perf/runs/<UTC>-e2e)")
    ap.add_argument("--peer", default=None,
                    help="a built feedrs-jsonl to use instead of building perf/peers")
    a = ap.parse_args()

    sh(["cargo", "build", "--release", "--bin", "feedmill"])
    if a.peer is None:
        sh(["cargo", "build", "--release", "--manifest-path", "perf/peers/Cargo.toml",
            "--bin", "feedrs-jsonl"])
    if not os.path.exists(a.archive):
        sh([sys.executable, "perf/gen_archive.py", "--records", "2870", "-o", a.archive])
    # Private copies: a shared target dir may be rebuilt by another checkout mid-run.
    tmp = tempfile.mkdtemp(prefix="feedmill-e2e-")
    fm = os.path.join(tmp, "feedmill")
    peer = os.path.join(tmp, "feedrs-jsonl")
    shutil.copy(os.path.join(ROOT, "target/release/feedmill"), fm)
    shutil.copy(a.peer or os.path.join(ROOT, "perf/peers/target/release/feedrs-jsonl"), peer)

    inputs = {"warc.gz": [a.archive], "dir x10": ["corpus/real"] * 10}
    jobs = []
    for name, inp in inputs.items():
        jobs += [
            (name, "feed-rs", [peer] + inp),
            (name, "feedmill -j1", [fm, "-q", "-j1"] + inp),
            (name, "feedmill -j2", [fm, "-q", "-j2"] + inp),
            (name, "feedmill -j1 --extract", [fm, "-q", "-j1", "--extract"] + inp),
            (name, "feedmill -j1 --sanitize strict", [fm, "-q", "-j1", "--sanitize", "strict"] + inp),
        ]
    stamp = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H%MZ")
    run_dir = a.out or os.path.join(ROOT, "perf", "runs", f"{stamp}-e2e")
    os.makedirs(run_dir, exist_ok=True)
    raw = open(os.path.join(run_dir, "raw.csv"), "w")
    raw.write("round,input,job,wall_s,user_s,sys_s,peak_rss_mb,load1\n")
    res = {}
    for r in range(a.rounds):
        for inp, job, argv in jobs:
            load = open("/proc/loadavg").read().split()[0]
            m = timed(argv)
            res.setdefault((inp, job), []).append(m)
            raw.write(f"{r},{inp},{job},{m[0]:.3f},{m[1]:.3f},{m[2]:.3f},{m[3]:.1f},{load}\n")
            raw.flush()
            print(f"round {r} {inp:8} {job:32} wall {m[0]:.2f} user {m[1]:.2f} sys {m[2]:.2f} "
                  f"rss {m[3]:.0f} MB load {load}", file=sys.stderr)

    med = {k: tuple(statistics.median(x[i] for x in v) for i in range(4)) for k, v in res.items()}
    lines = [f"# End-to-end run {stamp}", "",
             f"{a.rounds} interleaved rounds, medians. Output to /dev/null. {a.note}", "",
             "| input | job | wall s | user s | sys s | CPU s | peak RSS MB | feed-rs/this wall | feed-rs/this CPU |",
             "|---|---|---|---|---|---|---|---|---|"]
    for inp in inputs:
        pw, pu, ps, _ = med[(inp, "feed-rs")]
        for _, job, _ in [j for j in jobs if j[0] == inp]:
            w, u, s, rss = med[(inp, job)]
            lines.append(f"| {inp} | {job} | {w:.2f} | {u:.2f} | {s:.2f} | {u + s:.2f} | {rss:.0f} | "
                         f"{pw / w:.2f}x | {(pu + ps) / (u + s):.2f}x |")
        w1 = med[(inp, "feedmill -j1")][0]
        w2 = med[(inp, "feedmill -j2")][0]
        c1 = sum(med[(inp, "feedmill -j1")][1:3])
        ex = sum(med[(inp, "feedmill -j1 --extract")][1:3])
        st = sum(med[(inp, "feedmill -j1 --sanitize strict")][1:3])
        lines.append("")
        lines.append(f"{inp}: 2 threads vs 1, wall {w1 / w2:.2f}x; CPU cost of --extract "
                     f"{ex / c1:.2f}x, of --sanitize strict {st / c1:.2f}x (vs default, 1 thread).")
        lines.append("")
    loads = [float(l.split(",")[-1]) for l in open(os.path.join(run_dir, "raw.csv")).read().splitlines()[1:]]
    lines.append(f"Load average (1 min) at the start of each run: min {min(loads):.1f}, "
                 f"median {statistics.median(loads):.1f}, max {max(loads):.1f} on "
                 f"{os.cpu_count()} CPUs.")
    summary = "\n".join(lines) + "\n"
    open(os.path.join(run_dir, "summary.md"), "w").write(summary)
    with open(os.path.join(run_dir, "env.txt"), "w") as env:
        commit = subprocess.run(["git", "rev-parse", "HEAD"], cwd=ROOT, capture_output=True,
                                text=True).stdout.strip()
        dirty = subprocess.run(["git", "diff", "--quiet"], cwd=ROOT).returncode != 0
        env.write(f"commit: {commit}{' (dirty)' if dirty else ''}\n")
        env.write(f"archive: {a.archive} ({os.path.getsize(a.archive)} bytes)\n")
        env.write(subprocess.run(["rustc", "-Vv"], capture_output=True, text=True).stdout)
        env.write(subprocess.run("lscpu | grep -E 'Model name|^CPU\\(s\\)'", shell=True,
                                 capture_output=True, text=True).stdout)
        env.write("jobs:\n" + "".join(f"  {i} | {j} | {' '.join(v)}\n" for i, j, v in jobs))
    print(summary)
    shutil.rmtree(tmp)


if __name__ == "__main__":
    main()
