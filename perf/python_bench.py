#!/usr/bin/env python3
"""`feedmill.parse_batch` from Python against the CLI, per core, on the same bytes. Not a
timed test. Run with the venv that has the wheel (python/ci.sh builds it):

  python perf/python_bench.py [--archive X.warc.gz] [--rounds 5]

Jobs, each on one core, over the records of the archive (default: the corpus x10 WARC.gz of
perf/e2e_bench.py):
- `cli -j1 parquet`: `feedmill -j1 --format parquet -o /dev/null ARCHIVE` (read, inflate,
  parse, Arrow, Parquet), CPU = user + sys of the process;
- `cli -j1 jsonl`: the same with JSON Lines;
- `python read+parse`: `read_warc_batches(ARCHIVE)` then `parse_batch` on every batch (read,
  inflate, parse, Arrow), CPU = process time;
- `python parse_batch`: `parse_batch` alone over batches read beforehand (in memory).
Speed = bytes of response bodies / CPU seconds (medians of interleaved rounds). The goal:
Python within 15 % of the CLI's per-core speed.
"""
import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time

import feedmill
import pyarrow.compute as pc

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def cli_cpu(argv):
    with tempfile.NamedTemporaryFile("r", suffix=".time") as t:
        subprocess.run(["/usr/bin/time", "-f", "%U %S", "-o", t.name] + argv, check=True,
                       stdout=subprocess.DEVNULL)
        user, sys_ = t.read().split()[-2:]
    return float(user) + float(sys_)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--archive", default=None,
                    help="the corpus x10 WARC.gz (default: generated into a scratch directory)")
    ap.add_argument("--cli", default=os.path.join(ROOT, "target", "release", "feedmill"))
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--batch-size", type=int, default=256)
    a = ap.parse_args()
    scratch = tempfile.TemporaryDirectory(prefix="feedmill-pybench-")
    if a.archive is None:
        a.archive = os.path.join(scratch.name, "corpus10.warc.gz")
        subprocess.run([sys.executable, os.path.join(ROOT, "perf", "gen_archive.py"),
                        "--records", "2870", "-o", a.archive], check=True,
                       stdout=subprocess.DEVNULL)

    batches = list(feedmill.read_warc_batches(a.archive, batch_size=a.batch_size))
    body_bytes = sum(pc.sum(pc.binary_length(b.column("body"))).as_py() or 0 for b in batches)
    records = sum(b.num_rows for b in batches)

    def py_read_parse():
        t = time.process_time()
        n = 0
        for raw in feedmill.read_warc_batches(a.archive, batch_size=a.batch_size):
            n += feedmill.parse_batch(raw).num_rows
        assert n == records
        return time.process_time() - t

    def py_parse():
        t = time.process_time()
        n = sum(feedmill.parse_batch(b).num_rows for b in batches)
        assert n == records
        return time.process_time() - t

    jobs = {
        "cli -j1 parquet": lambda: cli_cpu(
            [a.cli, "-q", "-j1", "--format", "parquet", "-o", "/dev/null", a.archive]),
        "cli -j1 jsonl": lambda: cli_cpu([a.cli, "-q", "-j1", "-o", "/dev/null", a.archive]),
        "python read+parse": py_read_parse,
        "python parse_batch": py_parse,
    }
    res = {k: [] for k in jobs}
    for _ in range(a.rounds):
        for k, f in jobs.items():
            res[k].append(f())
    mb = body_bytes / 1e6
    print(f"{a.archive}: {records} records, {mb:.1f} MB of bodies "
          f"(batch size {a.batch_size}, {a.rounds} interleaved rounds, medians)\n")
    print("| job | CPU s | MB/s per core |")
    print("|---|---|---|")
    med = {k: statistics.median(v) for k, v in res.items()}
    for k in jobs:
        print(f"| {k} | {med[k]:.2f} | {mb / med[k]:.1f} |")
    ref = med["cli -j1 parquet"]
    print(f"\npython read+parse / cli -j1 parquet speed: {ref / med['python read+parse']:.2f}")
    print(f"python parse_batch / cli -j1 parquet speed: {ref / med['python parse_batch']:.2f}")
    print(f"load average (1 min) at the end: {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs")


if __name__ == "__main__":
    sys.exit(main())
