"""PySpark job: WARC / WARC.gz files -> feedmill records -> Parquet.

Files are grouped into Spark tasks (the unit of parallelism and of retry): a DataFrame of
file paths, ``--files-per-task`` paths per partition (crawls are often many small WARCs: one
task per file would spend more on scheduling than on parsing), goes through
``DataFrame.mapInArrow``; on the executor, ``feedmill.read_warc_batches(path, parse=True)``
streams each file's records in Arrow batches of ``--batch-size`` records with feedmill's
Arrow schema, which Spark writes as Parquet. Memory per task is one batch of bodies plus its
records, whatever the file sizes.

    PYSPARK_PYTHON=/path/to/venv/bin/python \
      spark-submit examples/spark/feedmill_job.py --output out.parquet crawl-*.warc.gz

``PYSPARK_PYTHON`` names the interpreter of the executors' Python workers: one where
``feedmill`` (and pyarrow) is installed (the wheel, or a packed environment shipped with
``--archives``). The paths must be readable from every executor (a shared file system, or
local files with ``local[N]``).

Timestamps: Spark writes Parquet timestamps as INT96 by default, which pyarrow and DuckDB read
back without a time zone; the session here writes ``TIMESTAMP_MICROS`` (UTC-adjusted), read
back as ``timestamp[us, tz=UTC]``, and uses UTC as its session time zone.
"""

import argparse
import glob
import os
import sys

# The session settings the job needs (see the module doc): UTC everywhere, timestamps written
# as UTC-adjusted microseconds.
SPARK_CONF = {
    "spark.sql.session.timeZone": "UTC",
    "spark.sql.parquet.outputTimestampType": "TIMESTAMP_MICROS",
}


def parse_files(batches, layout="records", options=None, batch_size=256):
    """mapInArrow function: batches of `paths` rows (a task's files) in, batches of records
    out."""
    import feedmill

    for tasks in batches:
        for path in (p for paths in tasks.column("paths").to_pylist() for p in paths):
            yield from feedmill.read_warc_batches(
                path, batch_size, parse=True, layout=layout, **(options or {})
            )


def spark_schema(layout="records"):
    """feedmill's Arrow schema as a Spark StructType."""
    import feedmill
    from pyspark.sql.pandas.types import from_arrow_schema

    return from_arrow_schema(feedmill.schema(layout))


def group_paths(paths, files_per_task):
    """`paths` (sorted, unique) in tasks of `files_per_task` consecutive files."""
    paths = sorted(set(os.path.abspath(p) for p in paths))
    n = max(1, files_per_task)
    return [paths[i : i + n] for i in range(0, len(paths), n)]


def records(spark, paths, layout="records", options=None, batch_size=256, files_per_task=1):
    """A DataFrame of the records of `paths`, `files_per_task` files per partition; `options`
    are feedmill's keyword options (``{"extract": True, "max_entries": 200_000}``)."""
    tasks = group_paths(paths, files_per_task)
    # One row per task (its files), one row per partition.
    rdd = spark.sparkContext.parallelize([(t,) for t in tasks], numSlices=max(1, len(tasks)))
    files = spark.createDataFrame(rdd, "paths array<string>")
    return files.mapInArrow(
        lambda it: parse_files(it, layout, options, batch_size), spark_schema(layout)
    )


def entries(df):
    """One row per entry of a records-layout DataFrame (`source`, the feed's title and the
    entry's columns), as the entries layout gives directly."""
    from pyspark.sql import functions as F

    return df.select(
        "source", F.col("feed.title").alias("feed_title"),
        F.explode("feed.entries").alias("entry"),
    ).select("source", "feed_title", "entry.*")


def session(app="feedmill", master=None):
    from pyspark.sql import SparkSession

    builder = SparkSession.builder.appName(app)
    for k, v in SPARK_CONF.items():
        builder = builder.config(k, v)
    if master:
        builder = builder.master(master)
    return builder.getOrCreate()


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("inputs", nargs="+", help="WARC / WARC.gz files or glob patterns")
    ap.add_argument("--output", required=True, help="Parquet output directory")
    ap.add_argument("--layout", choices=["records", "entries"], default="records")
    ap.add_argument("--extract", action="store_true")
    ap.add_argument("--spec-exact", action="store_true")
    ap.add_argument("--batch-size", type=int, default=256)
    ap.add_argument("--files-per-task", type=int, default=8)
    ap.add_argument("--master", default=None, help="e.g. local[2] (default: spark-submit's)")
    args = ap.parse_args(argv)

    spark = session(master=args.master)
    paths = [p for pat in args.inputs for p in (sorted(glob.glob(pat)) or [pat])]
    options = {"extract": args.extract, "spec_exact": args.spec_exact}
    df = records(spark, paths, args.layout, options, args.batch_size, args.files_per_task)
    df.write.mode("overwrite").parquet(args.output)
    spark.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
