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
    import feedmill_job

    builder = SparkSession.builder.master("local[2]").appName("feedmill-test")
    for k, v in feedmill_job.SPARK_CONF.items():
        builder = builder.config(k, v)
    s = builder.config("spark.ui.enabled", "false").getOrCreate()
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


def test_spark_groups_files_keeps_utc_and_explodes_entries(spark, warcs, tmp_path):
    """Two WARCs in one task; the timestamps Spark writes come back into pyarrow (and so
    DuckDB) as UTC instants equal to feedmill's; exploding `feed.entries` gives the entries
    layout's rows."""
    import pyarrow as pa

    import feedmill
    import feedmill_job

    df = feedmill_job.records(spark, warcs, files_per_task=2)
    assert df.rdd.getNumPartitions() == 1
    out = str(tmp_path / "records.parquet")
    df.write.mode("overwrite").parquet(out)
    table = pq.read_table(out)
    updated = table.schema.field("feed").type.field("updated").type
    assert updated == pa.timestamp("us", tz="UTC"), updated
    want = {}
    for path in warcs:
        for b in feedmill.read_warc_batches(path, parse=True):
            for src, feed in zip(b.column("source").to_pylist(), b.column("feed").to_pylist()):
                want[src] = feed and feed["updated"]
    got = {r["source"]: r["feed"] and r["feed"]["updated"]
           for r in table.select(["source", "feed"]).to_pylist()}
    assert got == want and any(v is not None for v in got.values())
    assert all(v.utcoffset().total_seconds() == 0 for v in got.values() if v is not None)

    exploded = feedmill_job.entries(df)
    n_entries = sum(len(f["entries"]) for f in table.column("feed").to_pylist() if f)
    assert exploded.count() == n_entries > 0
    by_layout = feedmill_job.records(spark, warcs, layout="entries", files_per_task=2)
    assert by_layout.where("entry_index IS NOT NULL").count() == n_entries


def test_group_paths():
    import feedmill_job

    tasks = feedmill_job.group_paths(["/c", "/a", "/b", "/a"], 2)
    assert tasks == [["/a", "/b"], ["/c"]]
    assert feedmill_job.group_paths(["/a"], 0) == [["/a"]]


def test_spark_entries_layout(spark, warcs):
    import feedmill_job

    df = feedmill_job.records(spark, warcs[1:], layout="entries", options={"extract": True})
    got = df.where("entry_index = 0").select("source", "title", "word_count").limit(5).collect()
    assert len(got) == 5
    assert all(r["word_count"] is not None for r in got)
