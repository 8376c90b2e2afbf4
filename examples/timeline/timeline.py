#!/usr/bin/env python3
"""The timeline of every entry of a crawl: per feed (the capture's target URI) and entry
(its `dedup_key`), when it was first and last seen, in how many captures, and how many
versions of it there were (distinct `fingerprint`s: 1 = never edited). Input: feedmill's
output of an archive run with `--extract`, as Parquet or JSON Lines. Writes CSV (a header
line, then one line per entry, by feed, first seen and key) to standard output.

With DuckDB installed (`python3 -m pip install duckdb`) the query below runs on either
input; without it, a JSON Lines input is read with the standard library alone (the same
rows; tests compare both). Records without a capture (plain documents) or without a feed
are left out; a revisit record counts as a capture with its original's entries.

Usage: python3 examples/timeline/timeline.py OUT.parquet|OUT.jsonl [--edited]
       (--edited: only the entries with more than one version)
"""
import csv
import json
import sys

SQL = """
WITH seen AS (
  SELECT capture.target_uri AS feed, strftime(CAST(capture.date AS TIMESTAMPTZ), '%Y-%m-%dT%H:%M:%SZ') AS date,
         unnest(feed.entries) AS e
  FROM {src}
  WHERE capture.date IS NOT NULL AND feed IS NOT NULL
)
SELECT feed, e.dedup_key AS dedup_key, min(date) AS first_seen, max(date) AS last_seen,
       count(DISTINCT date) AS captures, count(DISTINCT e.fingerprint) AS versions
FROM seen
WHERE e.dedup_key IS NOT NULL
GROUP BY feed, e.dedup_key
ORDER BY feed, first_seen, dedup_key
"""

COLUMNS = ["feed", "dedup_key", "first_seen", "last_seen", "captures", "versions"]


def with_duckdb(path):
    import duckdb

    con = duckdb.connect()
    con.execute("SET TimeZone = 'UTC'")
    if path.endswith(".parquet"):
        src = f"read_parquet('{path}')"
    else:
        src = f"read_json_auto('{path}', maximum_object_size=67108864, sample_size=-1)"
    return [tuple(r) for r in con.execute(SQL.format(src=src)).fetchall()]


def plain(path):
    """The same rows from JSON Lines with the standard library."""
    acc = {}
    with open(path, encoding="utf-8") as f:
        for line in f:
            r = json.loads(line)
            cap, feed = r.get("capture") or {}, r.get("feed")
            if not cap.get("date") or feed is None:
                continue
            # RFC 3339 UTC, to the second (as the SQL formats it).
            date = cap["date"][:19] + "Z"
            for e in feed.get("entries", []):
                if e.get("dedup_key") is None:
                    continue
                k = (cap.get("target_uri"), e["dedup_key"])
                dates, prints = acc.setdefault(k, (set(), set()))
                dates.add(date)
                if e.get("fingerprint") is not None:
                    prints.add(e["fingerprint"])
    rows = [(f, k, min(d), max(d), len(d), len(p)) for (f, k), (d, p) in acc.items()]
    return sorted(rows, key=lambda r: (r[0] is None, r[0] or "", r[2], r[1]))


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    if len(args) != 1:
        sys.exit(__doc__.split("\n\n")[-1])
    path = args[0]
    try:
        rows = with_duckdb(path)
    except ImportError:
        if path.endswith(".parquet"):
            sys.exit("reading Parquet needs DuckDB: python3 -m pip install duckdb "
                     "(or write JSON Lines: feedmill -o OUT.jsonl)")
        rows = plain(path)
    if "--edited" in sys.argv:
        rows = [r for r in rows if r[5] > 1]
    w = csv.writer(sys.stdout, lineterminator="\n")
    try:
        w.writerow(COLUMNS)
        w.writerows(rows)
        sys.stdout.flush()
    except BrokenPipeError:
        # A reader that stopped early (`| head`): not an error.
        sys.stdout = None


if __name__ == "__main__":
    main()
