"""The feeds-through-time recipe (docs/timeline.md): its commands run as written, its SQL is
examples/timeline/timeline.py's, DuckDB over Parquet and over JSON Lines and the
standard-library reading agree, and a generated five-capture archive of one feed gives the
exact expected timeline."""

import csv
import io
import os
import re
import subprocess
import sys

import pytest

from conftest import ROOT, run_cli

sys.path.insert(0, os.path.join(ROOT, "examples", "timeline"))
import timeline  # noqa: E402

DOC = os.path.join(ROOT, "docs", "timeline.md")


def blocks(lang):
    with open(DOC) as f:
        return re.findall(rf"```{lang}\n(.*?)```", f.read(), re.S)


def rows_of(text):
    return [tuple(r) for r in csv.reader(io.StringIO(text))][1:]


def test_the_doc_sql_is_the_scripts():
    norm = lambda s: " ".join(s.split())
    assert norm(blocks("sql")[0]) == norm(timeline.SQL)


def test_the_doc_commands_as_written():
    """The page's shell blocks, verbatim, from the repository root (python3: this test's
    interpreter, where DuckDB is installed); then what the page says of their output."""
    env = dict(os.environ, PATH=os.path.dirname(sys.executable) + os.pathsep + os.environ["PATH"])
    sh = blocks("sh")
    r = subprocess.run(["bash", "-euo", "pipefail", "-c", sh[0]], cwd=ROOT, env=env,
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    assert "1149 archive records skipped" in r.stderr
    assert "ok 1148" in r.stderr and "revisit 287" in r.stderr
    shown = blocks("text")[0]
    assert r.stdout.endswith(shown), r.stdout
    with open("/tmp/timeline.csv") as f:
        rows = rows_of(f.read())
    assert len(rows) == 5030
    first = {}
    for row in rows:
        first[row[2]] = first.get(row[2], 0) + 1
    assert first == {"2024-03-01T06:00:00Z": 4248, "2024-03-02T06:00:00Z": 245,
                     "2024-03-03T06:00:00Z": 252, "2024-03-04T06:00:00Z": 285}
    assert sum(1 for row in rows if row[5] == "2") == 251
    assert all(row[5] in ("1", "2") for row in rows)
    r = subprocess.run(["bash", "-euo", "pipefail", "-c", sh[1]], cwd=ROOT, env=env,
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    with open("/tmp/timeline-jsonl.csv") as f:
        assert rows_of(f.read()) == rows
    # The standard library alone reads the JSON Lines the same.
    assert [tuple(map(str, x)) for x in timeline.plain("/tmp/captures.jsonl")] == rows


FEED = """<?xml version="1.0"?>
<rss version="2.0"><channel><title>News</title><link>https://news.example/</link>
{items}
</channel></rss>
"""


def exact_case(cli, tmp_path):
    """A five-capture archive of one feed of five entries, through the CLI with --extract:
    (its Parquet, its JSON Lines, the expected timeline)."""
    # Five entries, newest first; the oldest (n4) is edited in capture 4.
    items = "\n".join(
        f"<item><title>Story {i}</title><guid>https://news.example/n{i}</guid>"
        f"<description>Body {i}</description></item>"
        for i in range(5)
    )
    corpus = tmp_path / "corpus"
    (corpus / "rss2").mkdir(parents=True)
    (corpus / "rss2" / "news.xml").write_text(FEED.format(items=items))
    warc = str(tmp_path / "c.warc.gz")
    subprocess.run([sys.executable, os.path.join(ROOT, "examples", "timeline", "captures.py"),
                    str(corpus), "-o", warc], check=True, capture_output=True)
    pq, jl = str(tmp_path / "c.parquet"), str(tmp_path / "c.jsonl")
    run_cli(cli, ["--extract", "-o", pq, warc])
    run_cli(cli, ["--extract", "-o", jl, warc])
    day = lambda d: f"2024-03-0{d}T06:00:00Z"
    feed = "https://feeds.example/rss2/news.xml"
    # By first seen, then key: n3 and n4 in every capture (n4 edited in capture 4: two
    # versions), n2 from capture 2, n1 from 3, n0 from 4; capture 5, the revisit, has them all.
    want = [
        (feed, "https://news.example/n3", day(1), day(5), 5, 1),
        (feed, "https://news.example/n4", day(1), day(5), 5, 2),
        (feed, "https://news.example/n2", day(2), day(5), 4, 1),
        (feed, "https://news.example/n1", day(3), day(5), 3, 1),
        (feed, "https://news.example/n0", day(4), day(5), 2, 1),
    ]
    return pq, jl, want


def test_exact_timeline_of_five_captures(cli, tmp_path):
    pq, jl, want = exact_case(cli, tmp_path)
    pytest.importorskip("duckdb")
    assert timeline.with_duckdb(pq) == want
    assert timeline.with_duckdb(jl) == want
    assert timeline.plain(jl) == want


def test_exact_timeline_in_spark(cli, tmp_path):
    """The same five captures, the timeline by Spark on local[2] (examples/spark/timeline.py)."""
    import shutil

    if shutil.which("java") is None:
        pytest.skip("Spark needs Java (python/ci.sh installs it)")
    import importlib.util

    from pyspark.sql import SparkSession

    spec = importlib.util.spec_from_file_location(
        "spark_timeline", os.path.join(ROOT, "examples", "spark", "timeline.py"))
    spark_timeline = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(spark_timeline)
    pq, _, want = exact_case(cli, tmp_path)
    os.environ["PYSPARK_PYTHON"] = sys.executable
    s = (SparkSession.builder.master("local[2]").appName("feedmill-timeline-test")
         .config("spark.sql.session.timeZone", "UTC").config("spark.ui.enabled", "false")
         .getOrCreate())
    try:
        got = [tuple(r) for r in spark_timeline.timeline(s, [pq]).collect()]
    finally:
        s.stop()
    assert got == want
