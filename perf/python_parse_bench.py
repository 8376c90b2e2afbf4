#!/usr/bin/env python3
"""`feedmill.parse` one body at a time, one thread, over the feeds of corpus/real, against
`feedparser.parse` when it is installed in the same venv. Not a timed test. Run with a venv
that has the wheel (python/build-wheels.sh or python/ci.sh makes one):

  VENV/bin/python perf/python_parse_bench.py [--rounds 5] [--feedparser-rounds 1]

Each job reads every file of corpus/real once into memory first (bytes), then times the
calls alone (process CPU time, best of the rounds, the rounds of the jobs interleaved):
- `feedmill.parse`: the record as Python values (what the package returns);
- `feedmill.parse_batch` over one batch of all the bodies (the Arrow form, for comparison);
- `feedparser.parse`: feedparser's dict (only with --feedparser-rounds > 0 and feedparser
  installed; it is about two orders of magnitude slower, so it gets fewer rounds).
Speed = bytes of the bodies / CPU seconds. Prints one CSV line per job.
"""
import argparse
import glob
import os
import sys
import time

import feedmill

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--feedparser-rounds", type=int, default=1)
    a = ap.parse_args()

    paths = sorted(
        p for p in glob.glob(os.path.join(ROOT, "corpus", "real", "*", "*")) if os.path.isfile(p)
    )
    bodies = []
    for p in paths:
        with open(p, "rb") as fh:
            bodies.append(fh.read())
    total = sum(len(b) for b in bodies)

    def run_parse():
        t = time.process_time()
        n = sum(1 for b in bodies if feedmill.parse(b)["status"] == "ok")
        return time.process_time() - t, n

    def run_batch():
        import pyarrow as pa

        batch = pa.record_batch({"body": pa.array(bodies, pa.binary())})
        t = time.process_time()
        out = feedmill.parse_batch(batch)
        n = out.column("status").to_pylist().count("ok")
        return time.process_time() - t, n

    jobs = {"feedmill.parse": run_parse, "feedmill.parse_batch": run_batch}
    rounds = {"feedmill.parse": a.rounds, "feedmill.parse_batch": a.rounds}
    try:
        import feedparser

        def run_feedparser():
            t = time.process_time()
            n = sum(1 for b in bodies if not feedparser.parse(b).get("bozo"))
            return time.process_time() - t, n

        if a.feedparser_rounds > 0:
            jobs["feedparser.parse"] = run_feedparser
            rounds["feedparser.parse"] = a.feedparser_rounds
    except ImportError:
        print("feedparser is not installed: skipped", file=sys.stderr)

    best = {k: None for k in jobs}
    oks = {}
    for r in range(max(rounds.values())):
        for name, job in jobs.items():
            if r >= rounds[name]:
                continue
            secs, n = job()
            oks[name] = n
            best[name] = secs if best[name] is None else min(best[name], secs)
    print(f"# {len(bodies)} files, {total} bytes; feedmill {feedmill.__version__}")
    print("job,files,ok,cpu_s,mb_per_s,files_per_s")
    for name, secs in best.items():
        print(f"{name},{len(bodies)},{oks[name]},{secs:.4f},{total / secs / 1e6:.2f},"
              f"{len(bodies) / secs:.0f}")


if __name__ == "__main__":
    main()
