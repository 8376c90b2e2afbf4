"""The Python package: parse (the record as Python values; test_values.py checks them
against the CLI's JSON Lines), parse_batch (the Arrow schema, one row per body, entries
layout), read_warc / read_warc_batches (the CLI's records for the same archive)."""

import datetime as dt
import json
import os

import pyarrow as pa
import pytest

import feedmill
from conftest import run_cli

ATOM = b"""<?xml version="1.0" encoding="utf-8"?>
<feed xmlns="http://www.w3.org/2005/Atom"><title type="html">&lt;b&gt;News&lt;/b&gt;</title>
<link href="/blog/"/><updated>2024-01-02T03:04:05Z</updated>
<entry><title>First</title><link href="a/1"/><author><name>Ann</name></author>
<updated>2024-01-02T03:04:05.5Z</updated><content type="html">&lt;p&gt;Hi&lt;/p&gt;</content></entry>
<entry><title>Second</title></entry></feed>"""


def test_parse_returns_the_json_record_shape():
    r = feedmill.parse(ATOM, url="https://x.example/feed.xml")
    assert r["status"] == "ok"
    assert r["format"] == "atom"
    assert r["source"] == "https://x.example/feed.xml"
    f = r["feed"]
    assert (f["title"], f["title_type"]) == ("<b>News</b>", "html")
    assert f["page_url"] == "https://x.example/blog/"
    assert f["updated"] == dt.datetime(2024, 1, 2, 3, 4, 5, tzinfo=dt.timezone.utc)
    e = f["entries"][0]
    assert (e["title"], e["title_type"]) == ("First", "text")
    assert (e["content"], e["content_type"]) == ("<p>Hi</p>", "html")
    assert e["page_url"] == "https://x.example/a/1"
    ann = {"name": "Ann", "email": None, "page_url": None, "icon": None}
    assert e["authors"] == [ann]
    assert e["updated"].isoformat() == "2024-01-02T03:04:05.500000+00:00"
    # The spec's computed values are written per entry (the second takes the feed's date).
    assert e["computed_authors"] == [ann]
    second = {k: v for k, v in f["entries"][1].items() if v is not None and v != []}
    assert second == {
        "title": "Second",
        "title_type": "text",
        "computed_updated": f["updated"],
        "computed_updated_offset": 0,
    }
    assert f["version"] == "1.0"


def test_parse_modules_and_channel_elements():
    body = b"""<rss version="2.0" xmlns:slash="http://purl.org/rss/1.0/modules/slash/">
<channel><title>T</title><webMaster>w@x.example (W)</webMaster>
<pubDate>Sat, 07 Sep 2002 00:00:01 GMT</pubDate><lastBuildDate>Sat, 07 Sep 2002 09:42:31 GMT</lastBuildDate>
<item><title>A</title><slash:comments>3</slash:comments></item></channel></rss>"""
    f = feedmill.parse(body)["feed"]
    assert f["version"] == "2.0"
    assert f["web_master"] == {"name": "W", "email": "w@x.example", "page_url": None, "icon": None}
    assert (f["updated"].isoformat(), f["updated_from"]) == ("2002-09-07T00:00:01+00:00", "pubDate")
    assert f["last_build_date"].isoformat() == "2002-09-07T09:42:31+00:00"
    e = f["entries"][0]
    assert e["comment_count"] == 3
    assert e["computed_updated"] == f["updated"]
    rb = feedmill.parse_batch(pa.record_batch({"body": [body]}))
    ent = rb.column("feed")[0]["entries"][0]
    assert ent["comment_count"].as_py() == 3


def test_parse_http_response_status_and_not_a_feed():
    r = feedmill.parse(b"nope", status=404, url="https://x.example/")
    assert r["status"] == "not_a_feed"
    assert r["error"] == {"kind": "http_status", "message": "HTTP status 404"}
    r = feedmill.parse(b"<html><body>hi</body></html>", content_type="text/html")
    assert r["status"] == "not_a_feed"
    # Charset from the Content-Type.
    body = "<rss version='2.0'><channel><title>caf\u00e9</title></channel></rss>".encode("latin-1")
    r = feedmill.parse(body, content_type="application/rss+xml; charset=iso-8859-1")
    assert r["feed"]["title"] == "caf\u00e9"
    assert r["encoding"] == "windows-1252"


def test_parse_extract_and_strict_sanitize():
    r = feedmill.parse(ATOM, extract=True)
    assert r["feed"]["entries"][0]["word_count"] == 1
    assert r["feed"]["entries"][0]["body_text"] == "Hi"
    body = (b"<rss version='2.0'><channel><item><description>&lt;p&gt;a&lt;script&gt;x()"
            b"&lt;/script&gt;&lt;/p&gt;</description></item></channel></rss>")
    spec = feedmill.parse(body)["feed"]["entries"][0]
    strict = feedmill.parse(body, sanitize="strict")["feed"]["entries"][0]
    assert "<script>" in spec["summary"] and "<script" not in strict["summary"]
    with pytest.raises(ValueError):
        feedmill.parse(body, sanitize="nope")


def test_parse_batch_schema_and_rows():
    batch = pa.record_batch(
        {
            "body": pa.array([ATOM, b"not a feed", None], pa.binary()),
            "url": ["https://x.example/feed.xml", None, "https://y.example/"],
            "status": pa.array([200, 200, None], pa.int32()),
            "content_type": ["application/atom+xml", "text/plain", None],
        }
    )
    out = feedmill.parse_batch(batch)
    assert out.schema == feedmill.schema()
    assert out.num_rows == 3
    rows = out.to_pylist()
    assert [r["status"] for r in rows] == ["ok", "not_a_feed", "error"]
    assert rows[0]["feed"]["title_type"] == "html"
    assert rows[0]["feed"]["entries"][0]["page_url"] == "https://x.example/a/1"
    assert rows[0]["feed"]["entries"][0]["updated"].isoformat() == "2024-01-02T03:04:05.500000+00:00"
    assert rows[2]["error"]["kind"] == "no_body"
    ent = feedmill.parse_batch(batch, layout="entries")
    assert ent.schema == feedmill.schema("entries")
    # Two entries of the feed, and one row each for the two records without entries.
    assert ent.num_rows == 4
    assert ent.column("entry_index").to_pylist() == [0, 1, None, None]
    assert ent.column("feed_title").to_pylist()[:2] == ["<b>News</b>"] * 2
    # large_binary and string bodies are accepted (cast).
    lb = pa.record_batch({"body": pa.array([ATOM], pa.large_binary())})
    assert feedmill.parse_batch(lb).column("status").to_pylist() == ["ok"]
    with pytest.raises(ValueError):
        feedmill.parse_batch(pa.record_batch({"x": [1]}))
    # A column of a type its name does not take is refused (test_options.py has the rest).
    with pytest.raises(TypeError):
        feedmill.parse_batch(pa.record_batch({"body": pa.array([1, 2])}))


def test_read_warc_matches_the_cli(cli, warcs, tmp_path):
    warc = warcs[0]
    out = tmp_path / "w.jsonl"
    run_cli(cli, ["-o", str(out), warc])
    cli_recs = [json.loads(l) for l in out.read_text().split("\n") if l]
    raws = list(feedmill.read_warc(warc))
    assert len(raws) == len(cli_recs) == 400
    assert [r["source"] for r in raws] == [r["source"] for r in cli_recs]
    assert any(r["error_kind"] for r in raws)
    # read_warc_batches + parse_batch give the CLI's records.
    batches = [feedmill.parse_batch(b) for b in feedmill.read_warc_batches(warc, batch_size=64)]
    table = pa.Table.from_batches(batches)
    assert table.num_rows == 400
    assert table.column("status").to_pylist() == [r["status"] for r in cli_recs]
    got = table.column("feed").to_pylist()
    for g, c in zip(got, cli_recs):
        if "feed" in c:
            assert g["title"] == c["feed"].get("title")
            assert len(g["entries"]) == len(c["feed"].get("entries", []))
        else:
            assert g is None


def test_read_warc_batches_are_bounded_by_bytes_too(warcs):
    """A batch ends before the record that would take it past batch_bytes (a record larger
    than that is a batch of its own), so the 32-bit offsets of its binary column never
    overflow; the records and their order are those of read_warc."""
    want = [r["source"] for r in feedmill.read_warc(warcs[1])]
    small = list(feedmill.read_warc_batches(warcs[1], batch_size=1000, batch_bytes=1))
    assert [b.num_rows for b in small] == [1] * len(want)
    assert [s for b in small for s in b.column("source").to_pylist()] == want
    mid = list(feedmill.read_warc_batches(warcs[1], batch_size=1000, batch_bytes=200_000))
    assert 1 < len(mid) < len(want)
    assert [s for b in mid for s in b.column("source").to_pylist()] == want
    for b in mid[:-1]:
        values = sum(len(x or b"") for x in b.column("body").to_pylist())
        assert b.num_rows == 1 or values <= 200_000


def test_a_status_that_is_no_http_status_is_an_error_record():
    r = feedmill.parse(ATOM, status=70000)
    assert r["status"] == "error"
    assert r["error"] == {"kind": "bad_http", "message": 'bad status line "HTTP/1.1 70000 -"'}
    assert feedmill.parse(ATOM, status=404)["status"] == "not_a_feed"


def test_parse_batch_takes_a_table(warcs):
    """A pyarrow.Table in (as Ray Data's batch_format="pyarrow" passes) gives a Table out
    with the records of its batches, in order."""
    batches = list(feedmill.read_warc_batches(warcs[1], batch_size=100))
    table = pa.Table.from_batches(batches)
    out = feedmill.parse_batch(table)
    assert isinstance(out, pa.Table)
    assert out.schema == feedmill.schema()
    want = [feedmill.parse_batch(b) for b in batches]
    assert out.num_rows == sum(b.num_rows for b in want) == 300
    assert out.column("source").to_pylist() == [s for b in want for s in b.column("source").to_pylist()]


def test_stubtest_finds_no_difference():
    """The stub (feedmill/__init__.pyi, feedmill/record.py) against the installed package:
    mypy's stubtest reports nothing (python/ci.sh installs mypy and pyarrow-stubs)."""
    import importlib.util
    import subprocess
    import sys

    if importlib.util.find_spec("mypy") is None:
        pytest.skip("mypy is not installed")
    r = subprocess.run([sys.executable, "-m", "mypy.stubtest", "feedmill"],
                       capture_output=True, text=True, cwd=os.path.dirname(__file__))
    assert r.returncode == 0, r.stdout + r.stderr
