"""The Spark job (examples/spark/feedmill_job.py) on local[2] over two WARC.gz files built
from corpus/real: its Parquet output has the CLI's records for the same files (row count,
sources, statuses, feed titles, entry counts)."""

import json
import os
import shutil
import sys
import time

import pyarrow.parquet as pq
import pytest

from conftest import ROOT, run_cli

sys.path.insert(0, os.path.join(ROOT, "examples", "spark"))

if shutil.which("java") is None:
    pytest.skip("Spark needs Java (python/ci.sh installs it)", allow_module_level=True)


@pytest.fixture(scope="module")
def spark():
    from pyspark.sql import SparkSession

    # Executors run this interpreter (the one with feedmill and pyarrow installed).
    os.environ["PYSPARK_PYTHON"] = sys.executable
    s = (
        SparkSession.builder.master("local[2]")
        .appName("feedmill-test")
        .config("spark.sql.session.timeZone", "UTC")
        .config("spark.ui.enabled", "false")
        .getOrCreate()
    )
    # The job's module, for the executors' Python workers.
    s.sparkContext.addPyFile(os.path.join(ROOT, "examples", "spark", "feedmill_job.py"))
    yield s
    s.stop()


def test_spark_job_matches_cli(spark, cli, warcs, tmp_path):
    import feedmill_job

    out = str(tmp_path / "spark.parquet")
    t = time.perf_counter()
    df = feedmill_job.records(spark, warcs)
    df.write.mode("overwrite").parquet(out)
    secs = time.perf_counter() - t
    table = pq.read_table(out)
    n = table.num_rows
    print(f"\nspark local[2]: {n} records in {secs:.1f} s = {n / secs:.0f} records/s")

    jl = tmp_path / "cli.jsonl"
    run_cli(cli, ["-o", str(jl), *sorted(warcs)])
    cli_recs = [json.loads(l) for l in jl.read_text().split("\n") if l]
    assert n == len(cli_recs) == 700

    rows = {r["source"]: r for r in table.select(["source", "status", "feed"]).to_pylist()}
    assert len(rows) == n
    for c in cli_recs:
        r = rows[c["source"]]
        assert r["status"] == c["status"], c["source"]
        if "feed" in c:
            assert r["feed"]["title"] == c["feed"].get("title")
            assert r["feed"]["title_type"] == c["feed"].get("title_type")
            assert len(r["feed"]["entries"]) == len(c["feed"].get("entries", []))
        else:
            assert r["feed"] is None
    statuses = {r["status"] for r in rows.values()}
    assert statuses == {"ok", "not_a_feed", "error"}


def test_spark_entries_layout(spark, warcs):
    import feedmill_job

    df = feedmill_job.records(spark, warcs[1:], layout="entries", extract=True)
    got = df.where("entry_index = 0").select("source", "title", "word_count").limit(5).collect()
    assert len(got) == 5
    assert all(r["word_count"] is not None for r in got)
