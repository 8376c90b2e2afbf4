"""PySpark: the timeline of every entry of a crawl (docs/timeline.md), from feedmill's
Parquet output of an archive run with ``--extract``: per feed (the capture's target URI) and
entry (``dedup_key``), first and last capture date, number of captures, number of versions
(distinct ``fingerprint``s). The same rows as examples/timeline/timeline.py's DuckDB query.

    spark-submit examples/spark/timeline.py out.parquet [out2.parquet ...]
"""

import sys

SQL = """
WITH seen AS (
  SELECT capture.target_uri AS feed,
         date_format(capture.date, "yyyy-MM-dd'T'HH:mm:ss'Z'") AS date,
         explode(feed.entries) AS e
  FROM records
  WHERE capture.date IS NOT NULL AND feed IS NOT NULL
)
SELECT feed, e.dedup_key AS dedup_key, min(date) AS first_seen, max(date) AS last_seen,
       count(DISTINCT date) AS captures, count(DISTINCT e.fingerprint) AS versions
FROM seen
WHERE e.dedup_key IS NOT NULL
GROUP BY feed, e.dedup_key
ORDER BY feed, first_seen, dedup_key
"""


def timeline(spark, paths):
    """The timeline DataFrame of feedmill Parquet files `paths` (the session's time zone
    should be UTC: the dates are formatted in it)."""
    spark.read.parquet(*paths).createOrReplaceTempView("records")
    return spark.sql(SQL)


if __name__ == "__main__":
    from pyspark.sql import SparkSession

    s = SparkSession.builder.appName("feedmill-timeline") \
        .config("spark.sql.session.timeZone", "UTC").getOrCreate()
    timeline(s, sys.argv[1:]).write.mode("overwrite").option("header", True).csv("timeline.csv")
    s.stop()
