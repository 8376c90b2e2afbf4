#!/usr/bin/env python3
"""Instruction counts of the user's jobs, checked against a committed baseline.

Wall time on a shared 2-core machine moves by 10-30 % between runs; the instructions a
single-threaded job executes do not (valgrind's callgrind counts them, whatever the load).
So CI runs each case below once under callgrind and fails when one executes more than
THRESHOLD (2 %) more instructions than `perf/instructions.tsv` records: a slowdown in the
parser, the JSON writer, the Parquet encoder or the archive reader cannot land unnoticed.
Run to run, the counts move by less than 0.001 %.

The cases are the release CLI at `-j1` (one thread: a deterministic count) over the real
corpus as a crawl would hold it (a WARC.gz made by perf/gen_archive.py from corpus/real, one
response per feed, plus its requests, errors and non-feed pages), over the corpus directory
with every per-record option on, to Parquet, and the library loop alone (examples/throughput:
`Parser::parse_bytes` over every corpus file, one round).

The baseline changes only on purpose: a change that costs instructions for a reason (a new
field, a new check) re-records it with `--bless` and says why in its commit message; so does a
change that saves more than THRESHOLD (the check reports it, so the gain is kept).

Usage:
  cargo build --release --bin feedmill --example throughput
  python3 perf/instructions.py             # check against perf/instructions.tsv (exit 1 on a regression)
  python3 perf/instructions.py --bless     # re-record the baseline (commit it with the reason)
  python3 perf/instructions.py --only cli-warc-gz,library-loop
Needs valgrind (Debian: `apt-get install valgrind`).
"""
import argparse
import os
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BASELINE = os.path.join(ROOT, "perf", "instructions.tsv")
THRESHOLD = 0.02
# Responses in the generated WARC.gz: one per corpus feed.
WARC_RECORDS = 287


def cases(target, warc):
    cli = os.path.join(target, "release", "feedmill")
    loop = os.path.join(target, "release", "examples", "throughput")
    quiet = ["--quiet", "-j1"]
    return {
        "cli-warc-gz": [cli, *quiet, warc, "-o", "/dev/null"],
        "cli-dir-extract-strict-lint": [cli, *quiet, "--extract", "--sanitize", "strict", "--lint",
                                        "corpus/real", "-o", "/dev/null"],
        "cli-warc-gz-parquet": [cli, *quiet, warc, "-o", "{tmp}/out.parquet"],
        "library-loop": [loop, "1"],
    }


def count(argv, tmp):
    """Instructions the command executes (callgrind's `refs`), and its exit status checked."""
    argv = [a.replace("{tmp}", tmp) for a in argv]
    out = os.path.join(tmp, "callgrind.out")
    r = subprocess.run(["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", *argv],
                       cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    if r.returncode != 0:
        sys.exit(f"{' '.join(argv)} failed ({r.returncode}):\n{r.stderr[-2000:]}")
    for line in r.stderr.splitlines():
        if "refs:" in line:
            return int(line.split()[-1].replace(",", ""))
    sys.exit(f"no instruction count from callgrind for {' '.join(argv)}")


def cpu():
    """The CPU model: glibc picks its string and memory routines by CPU features, so counts
    are comparable between machines of one model only."""
    with open("/proc/cpuinfo") as f:
        for line in f:
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    return "unknown"


def read_baseline():
    """The baseline's counts by case, and the CPU model they were recorded on."""
    base, on = {}, None
    if os.path.exists(BASELINE):
        with open(BASELINE) as f:
            for line in f:
                if line.startswith("# cpu:"):
                    on = line.split(":", 1)[1].strip()
                if line.startswith("#") or not line.strip():
                    continue
                name, n = line.split("\t")[:2]
                base[name] = int(n)
    return base, on


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--bless", action="store_true", help="write the counts as the new baseline")
    ap.add_argument("--only", help="comma-separated case names")
    ap.add_argument("--target-dir", default=os.environ.get("CARGO_TARGET_DIR",
                                                           os.path.join(ROOT, "target")))
    a = ap.parse_args()

    with tempfile.TemporaryDirectory(prefix="feedmill-instructions-") as tmp:
        warc = os.path.join(tmp, "corpus.warc.gz")
        subprocess.run([sys.executable, os.path.join(ROOT, "perf", "gen_archive.py"),
                        "--records", str(WARC_RECORDS), "-o", warc],
                       cwd=ROOT, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        todo = cases(a.target_dir, warc)
        if a.only:
            names = a.only.split(",")
            unknown = [n for n in names if n not in todo]
            if unknown:
                sys.exit(f"unknown case(s) {unknown}; cases: {', '.join(todo)}")
            todo = {n: todo[n] for n in names}
        counts = {name: count(argv, tmp) for name, argv in todo.items()}

    base, recorded_on = read_baseline()
    failed = False
    print(f"{'case':<30} {'baseline':>14} {'now':>14} {'change':>8}")
    for name, n in counts.items():
        b = base.get(name)
        if b is None:
            print(f"{name:<30} {'-':>14} {n:>14,} {'new':>8}")
            failed |= not a.bless
            continue
        change = n / b - 1
        verdict = ""
        if change > THRESHOLD:
            verdict, failed = f"  REGRESSION (> {THRESHOLD:.0%})", True
        elif change < -THRESHOLD:
            verdict = "  faster: re-record the baseline (--bless) to keep the gain"
        print(f"{name:<30} {b:>14,} {n:>14,} {change:>+8.2%}{verdict}")

    if a.bless:
        base.update(counts)
        with open(BASELINE, "w") as f:
            f.write("# case\tinstructions (callgrind refs; perf/instructions.py --bless)\n")
            f.write(f"# cpu: {cpu()}\n")
            for name in cases("", ""):
                if name in base:
                    f.write(f"{name}\t{base[name]}\n")
        print(f"baseline written: {os.path.relpath(BASELINE, ROOT)}")
        return
    if failed and recorded_on != cpu():
        print(f"not checked: the baseline was recorded on {recorded_on!r}, this machine is "
              f"{cpu()!r} (re-record it here with --bless to compare)")
        return
    if failed:
        sys.exit(f"instruction counts above the baseline by more than {THRESHOLD:.0%} (or a case "
                 "without one): find the cost (perf/README.md), or re-record the baseline with "
                 "--bless and give the reason in the commit message")


if __name__ == "__main__":
    main()
