#!/usr/bin/env python3
"""End-to-end benchmark: the user's job (archive or directory in, JSON Lines out) with the
release `feedmill` CLI against `feedrs-jsonl` (feed-rs + serde_json doing the same job,
perf/peers/src/bin/feedrs_jsonl.rs). Not a timed test.

Inputs: (a) a WARC.gz of the corpus x10 (perf/gen_archive.py --records 2870, one gzip member
per record, ~8% of bodies gzip+chunked, ~10% non-200 or not feeds), (b) `corpus/real` named
10 times on the command line. Output goes to /dev/null, or with --to-file to a file (the
user's job as run: the JSON written to disk; the file is removed after each run). With a
file, each round also writes as many bytes of zeros as `feedmill -j1`'s output (`head -c N
/dev/zero`): the system time the kernel takes to write that output, whoever makes it.

Interleaved rounds: each round runs every job once, in a fixed order, so load changes hit all
jobs alike. Each run is measured by /usr/bin/time: wall, user, sys, peak RSS. Reported:
medians per job, the least disturbed run's CPU time, and ratios feed-rs / feedmill (wall,
CPU = user+sys) as medians of the per-round ratios. `feedmill -jN` is N worker threads doing
all the CPU work (inflating WARC.gz members included); the reader thread only reads.

What two threads can gain depends on the machine as much as on the pipeline: two busy vCPUs
of a VM may share a physical core's caches and memory bandwidth, or lose time to the host.
So each round also runs the machine's own ceiling: two `feedmill -j1` processes at once, each
on half the input (the WARC.gz cut at the gzip member nearest its middle; the directory named
5 times each), which share nothing but the machine. Their CPU time over one `-j1`'s on the
whole input is the machine's cost of two busy CPUs, and caps what two threads can gain at 2 /
that cost; `-j2`'s CPU time over theirs is the pipeline's own cost of two threads.
--callgrind adds instruction counts of feed-rs and feedmill -j1 over the corpus x1 (a WARC.gz
and the directory), which a loaded or noisy machine does not change.

Usage:
  python3 perf/e2e_bench.py                 # 5 rounds, records perf/runs/<UTC time>-e2e/
  python3 perf/e2e_bench.py --rounds 9 --to-file --callgrind --note "quiet machine"
  python3 perf/e2e_bench.py --peer /path/to/feedrs-jsonl   # reuse a built peer
Builds: `cargo build --release --bin feedmill` and the peer
(`cargo build --release --manifest-path perf/peers/Cargo.toml --bin feedrs-jsonl`).
"""
import argparse
import datetime
import os
import shlex
import shutil
import statistics
import subprocess
import sys
import tempfile
import zlib

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CEILING = "2 x feedmill -j1 on halves at once"
WRITE_ONLY = "write as many bytes of zeros"


def sh(cmd, **kw):
    return subprocess.run(cmd, check=True, cwd=ROOT, **kw)


def timed(argv, out=os.devnull, also_written=()):
    """Runs `argv` with its standard output to `out` (removed afterwards unless /dev/null, as
    are the files `also_written`); returns wall, user, sys seconds (of the command and every
    process it waited for), peak RSS in MB (the largest process's) and minor page faults."""
    with tempfile.NamedTemporaryFile("r", suffix=".time") as t:
        with open(out, "wb") as sink:
            subprocess.run(["/usr/bin/time", "-f", "%e %U %S %M %R", "-o", t.name] + argv,
                           check=True, cwd=ROOT, stdout=sink)
        wall, user, sys_, rss, faults = t.read().split()[-5:]
    if out != os.devnull:
        os.remove(out)
    for path in also_written:
        if os.path.exists(path):
            os.remove(path)
    return float(wall), float(user), float(sys_), int(rss) / 1024.0, int(faults)


def instructions(argv):
    """Instructions the command executes (valgrind's callgrind: independent of the load)."""
    with tempfile.TemporaryDirectory() as d:
        r = subprocess.run(["valgrind", "--tool=callgrind", f"--callgrind-out-file={d}/cg"] + argv,
                           cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                           check=True)
    for line in r.stderr.splitlines():
        if "refs:" in line:
            return int(line.split()[-1].replace(",", ""))
    raise RuntimeError("no instruction count from callgrind")


def member_starts(data):
    """Offsets where the gzip members of `data` start, and its length."""
    starts, pos = [0], 0
    while pos < len(data):
        d, fed = zlib.decompressobj(31), pos
        while not d.eof and fed < len(data):
            d.decompress(data[fed:fed + (64 << 10)])
            fed = min(fed + (64 << 10), len(data))
        pos = fed - len(d.unused_data)
        starts.append(pos)
    return starts


def halve_archive(path, tmp):
    """Cuts the WARC.gz at `path` at the gzip member nearest its middle (each record is a
    member, perf/gen_archive.py): two archives in `tmp` holding its records between them."""
    data = open(path, "rb").read()
    mid = min(member_starts(data), key=lambda x: abs(x - len(data) // 2))
    halves = [os.path.join(tmp, "first-half.warc.gz"), os.path.join(tmp, "second-half.warc.gz")]
    for half, part in zip(halves, (data[:mid], data[mid:])):
        open(half, "wb").write(part)
    return halves


def at_once(fm, halves, out):
    """argv running `feedmill -q -j1` on each of `halves` (lists of inputs) at once, the
    first's output to standard output (`out`), the others' to `out`.N; and those files."""
    others = [f"{out}.{i}" if out != os.devnull else os.devnull for i in range(1, len(halves))]
    q = lambda xs: " ".join(shlex.quote(x) for x in xs)
    cmds = [q([fm, "-q", "-j1"] + halves[0])]
    cmds += [q([fm, "-q", "-j1", "-o", o] + h) for o, h in zip(others, halves[1:])]
    return ["sh", "-c", " & ".join(cmds) + " & wait"], [o for o in others if o != os.devnull]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--archive", default=None,
                    help="the corpus x10 WARC.gz (default: generated into a scratch directory)")
    ap.add_argument("--note", default="")
    ap.add_argument("--out", default=None, help="run directory (default perf/runs/<UTC>-e2e)")
    ap.add_argument("--peer", default=None,
                    help="a built feedrs-jsonl to use instead of building perf/peers")
    ap.add_argument("--to-file", action="store_true",
                    help="write every job's output to a file in a temporary directory (the user's "
                         "job: JSON written) instead of /dev/null")
    ap.add_argument("--callgrind", action="store_true",
                    help="also count instructions (valgrind) of feed-rs and feedmill -j1 over the "
                         "corpus x1 as a WARC.gz and as a directory")
    a = ap.parse_args()

    sh(["cargo", "build", "--release", "--bin", "feedmill"])
    if a.peer is None:
        sh(["cargo", "build", "--release", "--manifest-path", "perf/peers/Cargo.toml",
            "--bin", "feedrs-jsonl"])
    # Private copies: a shared target dir may be rebuilt by another checkout mid-run.
    tmp = tempfile.mkdtemp(prefix="feedmill-e2e-")
    if a.archive is None:
        a.archive = os.path.join(tmp, "corpus10.warc.gz")
        sh([sys.executable, "perf/gen_archive.py", "--records", "2870", "-o", a.archive])
    fm = os.path.join(tmp, "feedmill")
    peer = os.path.join(tmp, "feedrs-jsonl")
    shutil.copy(os.path.join(ROOT, "target/release/feedmill"), fm)
    shutil.copy(a.peer or os.path.join(ROOT, "perf/peers/target/release/feedrs-jsonl"), peer)

    inputs = {"warc.gz": [a.archive], "dir x10": ["corpus/real"] * 10}
    halves = {"warc.gz": [[h] for h in halve_archive(a.archive, tmp)],
              "dir x10": [["corpus/real"] * 5] * 2}
    out = os.path.join(tmp, "out") if a.to_file else os.devnull
    jobs = []
    for name, inp in inputs.items():
        pair, pair_outputs = at_once(fm, halves[name], out)
        jobs += [
            (name, "feed-rs", [peer] + inp),
            (name, "feedmill -j1", [fm, "-q", "-j1"] + inp),
            (name, "feedmill -j2", [fm, "-q", "-j2"] + inp),
            (name, CEILING, pair, pair_outputs),
            (name, "feedmill -j1 --extract", [fm, "-q", "-j1", "--extract"] + inp),
            (name, "feedmill -j1 --sanitize strict", [fm, "-q", "-j1", "--sanitize", "strict"] + inp),
        ]
        if a.to_file:
            # The kernel's share of writing the output: the same number of bytes, no work.
            size = len(subprocess.run([fm, "-q", "-j1"] + inp, cwd=ROOT, check=True,
                                      capture_output=True).stdout)
            jobs.append((name, WRITE_ONLY, ["head", "-c", str(size), "/dev/zero"]))
    stamp = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H%MZ")
    run_dir = a.out or os.path.join(ROOT, "perf", "runs", f"{stamp}-e2e")
    os.makedirs(run_dir, exist_ok=True)
    raw = open(os.path.join(run_dir, "raw.csv"), "w")
    raw.write("round,input,job,wall_s,user_s,sys_s,peak_rss_mb,load1\n")
    res = {}
    for r in range(a.rounds):
        for inp, job, argv, *also in jobs:
            load = open("/proc/loadavg").read().split()[0]
            m = timed(argv, out, *also)
            res.setdefault((inp, job), []).append(m)
            raw.write(f"{r},{inp},{job},{m[0]:.3f},{m[1]:.3f},{m[2]:.3f},{m[3]:.1f},{load}\n")
            raw.flush()
            print(f"round {r} {inp:8} {job:32} wall {m[0]:.2f} user {m[1]:.2f} sys {m[2]:.2f} "
                  f"rss {m[3]:.0f} MB load {load}", file=sys.stderr)

    med = {k: tuple(statistics.median(x[i] for x in v) for i in range(4)) for k, v in res.items()}
    cpu = lambda m: m[1] + m[2]

    def paired(inp, num, den, f):
        """Median over rounds of f(num's run) / f(den's run) in the same round: both runs met
        about the same machine state, so a round's ratio is steadier than a ratio of medians."""
        return statistics.median(f(x) / f(y) for x, y in zip(res[(inp, num)], res[(inp, den)]))

    where = "to a file" if a.to_file else "to /dev/null"
    lines = [f"# End-to-end run {stamp}", "",
             f"{a.rounds} interleaved rounds, medians. Output {where}. {a.note}", "",
             "Ratios are medians of the per-round ratios (each pair of runs in the same round); "
             "`min CPU` is the least disturbed run's.", "",
             "| input | job | wall s | user s | sys s | CPU s | min CPU s | peak RSS MB | feed-rs/this wall | feed-rs/this CPU |",
             "|---|---|---|---|---|---|---|---|---|---|"]
    for inp in inputs:
        for job in [j[1] for j in jobs if j[0] == inp]:
            w, u, s, rss = med[(inp, job)]
            lo = min(cpu(x) for x in res[(inp, job)])
            ratios = "— | —"  # writing zeros is not the job feed-rs does
            if job != WRITE_ONLY:
                ratios = (f"{paired(inp, 'feed-rs', job, lambda m: m[0]):.2f}x | "
                          f"{paired(inp, 'feed-rs', job, cpu):.2f}x")
            lines.append(f"| {inp} | {job} | {w:.2f} | {u:.2f} | {s:.2f} | {u + s:.2f} | {lo:.2f} | "
                         f"{rss:.0f} | {ratios} |")
        scale = paired(inp, "feedmill -j1", "feedmill -j2", lambda m: m[0])
        tax = paired(inp, CEILING, "feedmill -j1", cpu)
        overhead = paired(inp, "feedmill -j2", CEILING, cpu)
        ex = paired(inp, "feedmill -j1 --extract", "feedmill -j1", cpu)
        st = paired(inp, "feedmill -j1 --sanitize strict", "feedmill -j1", cpu)
        lines.append("")
        lines.append(f"{inp}: 2 threads vs 1, wall {scale:.2f}x. Two -j1 processes at once, on "
                     f"halves, take {tax:.2f}x the CPU time of one on the whole (the machine's "
                     f"cost of two busy CPUs), which caps two threads at {2 / tax:.2f}x; -j2 "
                     f"takes {overhead:.2f}x the CPU time of those two processes (the pipeline's "
                     f"own cost). CPU cost of --extract {ex:.2f}x, of --sanitize strict "
                     f"{st:.2f}x (vs default, 1 thread).")
        j1_user, j1_sys = med[(inp, "feedmill -j1")][1:3]
        floor = ""
        if a.to_file:
            w_sys = med[(inp, WRITE_ONLY)][2]
            floor = (f"; writing as many bytes of zeros to a new file takes {w_sys:.2f} s of "
                     f"system time alone, {w_sys / j1_user:.0%} of -j1's user time")
        lines.append("")
        lines.append(f"{inp}: -j1 system time {j1_sys:.2f} s, {j1_sys / j1_user:.0%} of its "
                     f"user time{floor}.")
        lines.append("")
    if a.callgrind:
        c1 = os.path.join(tmp, "c1.warc.gz")
        sh([sys.executable, "perf/gen_archive.py", "--records", "287", "-o", c1],
           stdout=subprocess.DEVNULL)
        lines.append("Instructions (callgrind, the corpus x1; independent of the load):")
        lines.append("")
        lines.append("| input | feed-rs | feedmill -j1 | feed-rs/feedmill |")
        lines.append("|---|---|---|---|")
        for name, inp in [("warc.gz x1", [c1]), ("dir x1", ["corpus/real"])]:
            p = instructions([peer] + inp)
            f = instructions([fm, "-q", "-j1", "-o", "/dev/null"] + inp)
            lines.append(f"| {name} | {p / 1e6:.1f} M | {f / 1e6:.1f} M | {p / f:.2f}x |")
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
        env.write("jobs:\n" + "".join(f"  {j[0]} | {j[1]} | {' '.join(j[2])}\n" for j in jobs))
    print(summary)
    shutil.rmtree(tmp)


if __name__ == "__main__":
    main()
