"""PySpark job: WARC / WARC.gz files -> feedmill records -> Parquet.

Each WARC file is one Spark task (the unit of parallelism and of retry): a DataFrame of file
paths, one per partition, goes through ``DataFrame.mapInArrow``; on the executor,
``feedmill.read_warc_batches`` streams the file's records in Arrow batches of
``--batch-size`` rows and ``feedmill.parse_batch`` turns each into a batch of records with
feedmill's Arrow schema, which Spark writes as Parquet. Memory per task is one batch of
bodies plus its records, whatever the file size.

    spark-submit examples/spark/feedmill_job.py --output out.parquet crawl-*.warc.gz

The paths must be readable from every executor (a shared file system, or local files with
``local[N]``). ``feedmill`` must be installed on the executors (``pip install ./python`` or
the built wheel, e.g. through ``--archives`` with a packed environment).
"""

import argparse
import glob
import os
import sys


def parse_files(batches, layout="records", extract=False, batch_size=256):
    """mapInArrow function: batches of `path` rows in, batches of records out."""
    import feedmill

    for paths in batches:
        for path in paths.column("path").to_pylist():
            for raw in feedmill.read_warc_batches(path, batch_size=batch_size):
                yield feedmill.parse_batch(raw, layout=layout, extract=extract)


def spark_schema(layout="records"):
    """feedmill's Arrow schema as a Spark StructType."""
    import feedmill
    from pyspark.sql.pandas.types import from_arrow_schema

    return from_arrow_schema(feedmill.schema(layout))


def records(spark, paths, layout="records", extract=False, batch_size=256):
    """A DataFrame of the records of `paths` (one partition per file)."""
    paths = sorted(set(os.path.abspath(p) for p in paths))
    rdd = spark.sparkContext.parallelize([(p,) for p in paths], numSlices=max(1, len(paths)))
    files = spark.createDataFrame(rdd, "path string")
    return files.mapInArrow(
        lambda it: parse_files(it, layout, extract, batch_size), spark_schema(layout)
    )


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("inputs", nargs="+", help="WARC / WARC.gz files or glob patterns")
    ap.add_argument("--output", required=True, help="Parquet output directory")
    ap.add_argument("--layout", choices=["records", "entries"], default="records")
    ap.add_argument("--extract", action="store_true")
    ap.add_argument("--batch-size", type=int, default=256)
    ap.add_argument("--master", default=None, help="e.g. local[2] (default: spark-submit's)")
    args = ap.parse_args(argv)

    from pyspark.sql import SparkSession

    builder = SparkSession.builder.appName("feedmill").config("spark.sql.session.timeZone", "UTC")
    if args.master:
        builder = builder.master(args.master)
    spark = builder.getOrCreate()
    paths = [p for pat in args.inputs for p in (sorted(glob.glob(pat)) or [pat])]
    df = records(spark, paths, args.layout, args.extract, args.batch_size)
    df.write.mode("overwrite").parquet(args.output)
    spark.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
