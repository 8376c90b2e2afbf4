"""The README's DuckDB queries, on the CLI's Parquet output and on its JSON Lines output
(read_json_auto): top authors, entries per day per feed. Both give the same rows, and the
rows a plain Python count over the JSON Lines gives."""

import collections
import json
import os

import duckdb
import pytest

from conftest import run_cli

TOP_AUTHORS = """
SELECT a.name AS author, count(*) AS entries
FROM (SELECT unnest(feed.entries) AS e FROM {src}),
     (SELECT unnest(e.authors) AS a)
WHERE a.name IS NOT NULL
GROUP BY author
ORDER BY entries DESC, author
LIMIT 10
"""

# The entry's date: `updated`, else `published` (day in UTC).
PER_DAY = """
SELECT feed.title AS feed, CAST(left(CAST(coalesce(e.updated, e.published) AS VARCHAR), 10) AS DATE) AS day,
       count(*) AS entries
FROM (SELECT feed, unnest(feed.entries) AS e FROM {src})
WHERE coalesce(e.updated, e.published) IS NOT NULL
GROUP BY ALL
ORDER BY entries DESC, feed, day
LIMIT 20
"""


@pytest.fixture(scope="module")
def outputs(root, cli, tmp_path_factory):
    d = tmp_path_factory.mktemp("duck")
    corpus = os.path.join(root, "corpus", "real")
    pq, jl = str(d / "records.parquet"), str(d / "records.jsonl")
    run_cli(cli, ["-o", pq, corpus])
    run_cli(cli, ["-o", jl, corpus])
    with open(jl) as fh:
        recs = [json.loads(l) for l in fh]
    return pq, jl, recs


def query(sql, src):
    con = duckdb.connect()
    con.execute("SET TimeZone = 'UTC'")
    return con.execute(sql.format(src=src)).fetchall()


def test_top_authors(outputs):
    pq, jl, recs = outputs
    from_parquet = query(TOP_AUTHORS, f"read_parquet('{pq}')")
    from_json = query(TOP_AUTHORS, f"read_json_auto('{jl}', maximum_object_size=67108864)")
    counts = collections.Counter(
        a["name"]
        for r in recs
        for e in r.get("feed", {}).get("entries", [])
        for a in e.get("authors", [])
        if "name" in a
    )
    expected = sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))[:10]
    assert from_parquet == expected
    assert from_json == expected
    assert expected[0][1] >= 10


def test_entries_per_day_per_feed(outputs):
    pq, jl, recs = outputs
    from_parquet = query(PER_DAY, f"read_parquet('{pq}')")
    from_json = query(PER_DAY, f"read_json_auto('{jl}', maximum_object_size=67108864)")
    counts = collections.Counter()
    for r in recs:
        f = r.get("feed", {})
        for e in f.get("entries", []):
            d = e.get("updated") or e.get("published")
            if d:
                counts[(f.get("title"), d[:10])] += 1
    expected = sorted(counts.items(), key=lambda kv: (-kv[1], str(kv[0][0]), kv[0][1]))[:20]
    as_rows = [(t, d.isoformat(), n) for (t, d, n) in from_parquet]
    assert as_rows == [(t, d, n) for ((t, d), n) in expected]
    assert from_json == from_parquet


def test_text_values_compare_as_strings_in_json(outputs):
    """The schema-stable shape: an HTML title is a string; `= 'text'` works in SQL."""
    _, jl, recs = outputs
    n = query(
        "SELECT count(*) FROM (SELECT unnest(feed.entries) AS e FROM {src}) "
        "WHERE e.summary_type = 'html' AND e.summary LIKE '%<%'",
        f"read_json_auto('{jl}', maximum_object_size=67108864)",
    )[0][0]
    expected = sum(
        1
        for r in recs
        for e in r.get("feed", {}).get("entries", [])
        if e.get("summary_type") == "html" and "<" in e["summary"]
    )
    assert n == expected > 100
