#!/usr/bin/env python3
"""Spark local[N] records/s of the example job (examples/spark/feedmill_job.py), start-up
excluded. Not a timed test. Run with the venv that has the wheel and pyspark (python/ci.sh):

  python perf/spark_bench.py [--files 4] [--master local[2]]

Input: `--files` WARC.gz files, each the corpus x10 archive of perf/e2e_bench.py (2870
responses) under its own name, so one Spark task per file. A warm-up job over a small archive
starts the JVM, the executors and their Python workers first; the timed job reads every file,
parses with `parse_batch` through `mapInArrow` and writes Parquet (snappy) to a temporary
directory.
"""
import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "examples", "spark"))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--archive", default=None,
                    help="the corpus x10 WARC.gz (default: generated into a scratch directory)")
    ap.add_argument("--files", type=int, default=4)
    ap.add_argument("--master", default="local[2]")
    a = ap.parse_args()
    tmp = tempfile.mkdtemp(prefix="feedmill-spark-")
    if a.archive is None:
        a.archive = os.path.join(tmp, "corpus10.warc.gz")
        subprocess.run([sys.executable, os.path.join(ROOT, "perf", "gen_archive.py"),
                        "--records", "2870", "-o", a.archive], check=True)
    paths = []
    for i in range(a.files):
        p = os.path.join(tmp, f"crawl-{i}.warc.gz")
        os.symlink(a.archive, p)
        paths.append(p)
    small = os.path.join(tmp, "warmup.warc.gz")
    subprocess.run([sys.executable, os.path.join(ROOT, "perf", "gen_archive.py"), "--records",
                    "20", "-o", small], check=True, capture_output=True)
    size = os.path.getsize(a.archive) * a.files

    import feedmill_job
    from pyspark.sql import SparkSession

    os.environ["PYSPARK_PYTHON"] = sys.executable
    t0 = time.perf_counter()
    spark = (SparkSession.builder.master(a.master).appName("feedmill-bench")
             .config("spark.sql.session.timeZone", "UTC").config("spark.ui.enabled", "false")
             .getOrCreate())
    spark.sparkContext.setLogLevel("ERROR")
    spark.sparkContext.addPyFile(os.path.join(ROOT, "examples", "spark", "feedmill_job.py"))
    feedmill_job.records(spark, [small]).write.mode("overwrite").parquet(
        os.path.join(tmp, "warmup.parquet"))
    start_up = time.perf_counter() - t0

    t = time.perf_counter()
    out = os.path.join(tmp, "out.parquet")
    feedmill_job.records(spark, paths).write.mode("overwrite").parquet(out)
    secs = time.perf_counter() - t
    n = spark.read.parquet(out).count()
    spark.stop()
    print(f"spark {a.master}: {a.files} WARC.gz files ({size / 1e6:.0f} MB compressed), "
          f"{n} records in {secs:.1f} s = {n / secs:.0f} records/s "
          f"({size / 1e6 / secs:.1f} MB/s of WARC.gz); start-up + warm-up {start_up:.1f} s "
          f"excluded; load average (1 min) {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs")
    shutil.rmtree(tmp)


if __name__ == "__main__":
    main()
