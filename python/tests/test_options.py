"""The options every function takes (the CLI's flags, `_` for `-`): one list, from the Rust
library's `Limits`, the same in the runtime `Options`, in the stub and in `limits()`; each
option changes the records as its CLI flag does; a wrong name or type raises TypeError, a
wrong value ValueError; the WARC readers without `parse=True` refuse parser options."""

import ast
import datetime
import os
import subprocess

import pyarrow as pa
import pytest

import feedmill
from conftest import ROOT

FLAGS = ["spec_exact", "base_url", "sanitize", "allow_video_embeds", "extract", "as_of"]

RSS = b"""<rss version="2.0"><channel><title>T</title><link>/home</link>
<item><title>a</title><link>/a</link></item><item><title>b</title></item>
<item><title>c</title></item></channel></rss>"""


def stub_options():
    """The keys of the stub's `Options` TypedDict."""
    path = os.path.join(ROOT, "python", "feedmill", "__init__.pyi")
    with open(path) as fh:
        tree = ast.parse(fh.read())
    (cls,) = [n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == "Options"]
    return [n.target.id for n in cls.body if isinstance(n, ast.AnnAssign)]


def safety_table_limits():
    """The limits of the table in docs/safety.md (generated from the Rust library's
    `Limits::ALL`), in order."""
    with open(os.path.join(ROOT, "docs", "safety.md")) as fh:
        text = fh.read()
    table = text.split("<!-- generated:limits -->")[1].split("<!-- /generated:limits -->")[0]
    return [
        line.split("`")[1] for line in table.splitlines() if line.startswith("| `")
    ]


def test_one_list_of_options():
    lims = feedmill.limits()
    assert list(lims) == safety_table_limits() and len(lims) >= 9
    assert lims["max_entries"] == 100_000
    want = FLAGS + list(lims)
    assert list(feedmill.Options.__annotations__) == want
    assert stub_options() == want


def test_limits_are_the_cli_flags(cli):
    """Every limit is a CLI flag of the same name (`--max-entries`)."""
    helptext = subprocess.run([cli, "--help"], capture_output=True, text=True).stdout
    missing = [n for n in feedmill.limits() if "--" + n.replace("_", "-") not in helptext]
    assert missing == [], missing


def test_each_option_changes_the_record():
    base = feedmill.parse(RSS)
    assert len(base["feed"]["entries"]) == 3
    # max_entries: the rest cut, with a limit_reached diagnostic.
    r = feedmill.parse(RSS, max_entries=2)
    assert len(r["feed"]["entries"]) == 2
    # (and the relative links kept as written, there being no base URL: relative_url)
    assert [d["kind"] for d in r["diagnostics"]] == ["limit_reached", "recovered"]
    # A feed of more entries than the default limit is read whole when it is raised.
    big = b"<rss><channel>" + b"<item><title>x</title></item>" * 5 + b"</channel></rss>"
    assert len(feedmill.parse(big, max_entries=4)["feed"]["entries"]) == 4
    assert len(feedmill.parse(big, max_entries=10)["feed"]["entries"]) == 5
    # max_input_bytes: an error record.
    r = feedmill.parse(RSS, max_input_bytes=10)
    assert r["status"] == "error" and r["error"]["kind"] == "too_large"
    # base_url: relative links resolved for a body without a URL of its own.
    assert base["feed"]["page_url"] is None or not base["feed"]["page_url"].startswith("http")
    r = feedmill.parse(RSS, base_url="https://ex.example/feed.xml")
    assert r["feed"]["page_url"] == "https://ex.example/home"
    assert r["feed"]["entries"][0]["page_url"] == "https://ex.example/a"
    # url wins over base_url.
    r = feedmill.parse(RSS, url="https://own.example/f", base_url="https://ex.example/")
    assert r["feed"]["page_url"] == "https://own.example/home"
    # extract: the extraction keys.
    assert base["feed"]["entries"][0]["title_text"] is None
    assert feedmill.parse(RSS, extract=True)["feed"]["entries"][0]["title_text"] == "a"
    # sanitize / allow_video_embeds.
    body = (b"<rss version='2.0'><channel><item><description>&lt;p&gt;a&lt;script&gt;x()"
            b"&lt;/script&gt;&lt;iframe src='https://www.youtube.com/embed/x'&gt;&lt;/iframe&gt;"
            b"&lt;/p&gt;</description></item></channel></rss>")
    spec = feedmill.parse(body)["feed"]["entries"][0]["summary"]
    strict = feedmill.parse(body, sanitize="strict")["feed"]["entries"][0]["summary"]
    video = feedmill.parse(body, sanitize="strict", allow_video_embeds=True)
    assert "<script>" in spec and "<script" not in strict and "<iframe" not in strict
    assert "<iframe" in video["feed"]["entries"][0]["summary"]


def test_spec_exact_turns_the_recovery_rules_off():
    # Bytes that are not UTF-8 without a declaration: the recovery rule guesses the
    # encoding (encoding_guessed); spec-exact reads UTF-8 with replacements.
    body = "<rss version='2.0'><channel><title>caf\u00e9</title></channel></rss>".encode("latin-1")
    rec = feedmill.parse(body)
    exact = feedmill.parse(body, spec_exact=True)
    kinds = {d["kind"] for d in rec["diagnostics"]}
    assert "encoding_guessed" in kinds, rec["diagnostics"]
    assert rec["feed"]["title"] == "caf\u00e9"
    assert not {"encoding_guessed", "recovered"} & {d["kind"] for d in exact["diagnostics"]}
    assert exact["feed"]["title"] != "caf\u00e9"


def test_as_of_is_the_reference_instant_of_future_dates():
    """`as_of` (the CLI's `--as-of`): an entry dated after it by more than a day is
    `future`; an aware datetime and an RFC 3339 str are the same instant."""
    body = (b"<rss version='2.0'><channel><item><title>a</title>"
            b"<pubDate>Wed, 01 Jul 2026 00:00:00 GMT</pubDate></item></channel></rss>")

    def flags(**kw):
        return feedmill.parse(body, extract=True, **kw)["feed"]["entries"][0]["date_flags"]

    before = datetime.datetime(2026, 6, 1, tzinfo=datetime.timezone.utc)
    after = datetime.datetime(2026, 7, 1, 2, tzinfo=datetime.timezone(datetime.timedelta(hours=2)))
    assert "future" in flags(as_of=before)
    assert "future" in flags(as_of="2026-06-01T00:00:00Z")
    assert "future" in flags(as_of="2026-06-01")
    assert "future" not in flags(as_of=after)
    assert "future" not in flags(as_of="2026-07-01T02:00:00+02:00")
    batch = pa.record_batch({"body": [body]})
    out = feedmill.parse_batch(batch, layout="entries", extract=True, as_of=before)
    assert "future" in out.column("date_flags").to_pylist()[0]


def test_options_reach_every_function(warcs, tmp_path):
    p = tmp_path / "f.xml"
    p.write_bytes(RSS)
    assert len(feedmill.parse_file(p, max_entries=1)["feed"]["entries"]) == 1
    batch = pa.record_batch({"body": [RSS, RSS]})
    out = feedmill.parse_batch(batch, max_entries=1, base_url="https://ex.example/")
    feeds = out.column("feed").to_pylist()
    assert [len(f["entries"]) for f in feeds] == [1, 1]
    assert feeds[0]["page_url"] == "https://ex.example/home"
    table = feedmill.parse_batch(pa.Table.from_batches([batch]), layout="entries", extract=True)
    assert table.column("title_text").to_pylist() == ["a", "b", "c"] * 2
    recs = list(feedmill.read_warc(warcs[1], parse=True, max_entries=1))
    assert max(len((r["feed"] or {}).get("entries") or []) for r in recs) == 1
    bs = list(feedmill.read_warc_batches(warcs[1], parse=True, max_entries=1))
    assert max(len(f["entries"]) for b in bs for f in b.column("feed").to_pylist() if f) == 1
    # The readers' own limit: a record larger than max_input_bytes is a too_large record.
    small = list(feedmill.read_warc(warcs[1], max_input_bytes=2000))
    assert any(r["error_kind"] == "too_large" for r in small)


@pytest.mark.parametrize(
    "kwargs, exc, match",
    [
        ({"max_entrys": 3}, TypeError, "unexpected keyword argument 'max_entrys'"),
        ({"max_entries": "3"}, TypeError, "max_entries must be an int"),
        ({"max_entries": True}, TypeError, "max_entries must be an int"),
        ({"max_entries": -1}, ValueError, "non-negative"),
        ({"max_entries": 2**70}, ValueError, "non-negative"),
        ({"spec_exact": 1}, TypeError, "spec_exact must be a bool"),
        ({"sanitize": "nope"}, ValueError, "sanitize must be"),
        ({"sanitize": None}, TypeError, "sanitize must be a str"),
        ({"base_url": "relative/path"}, ValueError, "not an absolute URL"),
        ({"extract": True, "as_of": datetime.datetime(2026, 1, 1)}, ValueError, "aware datetime"),
        ({"extract": True, "as_of": "yesterday"}, ValueError, "RFC 3339"),
        ({"extract": True, "as_of": 1700000000}, TypeError, "as_of must be a datetime or a str"),
        ({"as_of": "2026-01-01T00:00:00Z"}, ValueError, "requires"),
        ({"allow_video_embeds": True}, ValueError, "requires sanitize"),
    ],
)
def test_bad_options_raise(kwargs, exc, match):
    with pytest.raises(exc, match=match):
        feedmill.parse(RSS, **kwargs)
    with pytest.raises(exc, match=match):
        feedmill.parse_batch(pa.record_batch({"body": [RSS]}), **kwargs)


def test_readers_without_parse_refuse_parser_options(warcs):
    for kwargs in [{"spec_exact": True}, {"max_entries": 1}, {"extract": True}]:
        with pytest.raises(TypeError, match="parse=True"):
            feedmill.read_warc(warcs[1], **kwargs)
        with pytest.raises(TypeError, match="parse=True"):
            feedmill.read_warc_batches(warcs[1], **kwargs)
    with pytest.raises(TypeError, match="parse=True"):
        feedmill.read_warc_batches(warcs[1], layout="entries")


def test_parse_batch_refuses_columns_of_other_types():
    ok = feedmill.parse_batch(pa.record_batch({"body": pa.array([RSS.decode()], pa.string())}))
    assert ok.column("status").to_pylist() == ["ok"]
    nulls = feedmill.parse_batch(pa.record_batch({"body": pa.array([None, None])}))
    assert nulls.column("status").to_pylist() == ["error", "error"]
    bad = [
        ({"body": pa.array([1, 2])}, "column \"body\" must be binary or string, not Int64"),
        ({"body": pa.array([1.5])}, "column \"body\" must be binary or string"),
        ({"body": [RSS], "status": ["200"]}, "column \"status\" must be integer"),
        ({"body": [RSS], "url": [3]}, "column \"url\" must be string"),
    ]
    for cols, match in bad:
        with pytest.raises(TypeError, match=match):
            feedmill.parse_batch(pa.record_batch(cols))
    with pytest.raises(ValueError, match="needs a `body` column"):
        feedmill.parse_batch(pa.record_batch({"x": [1]}))
    # A status no HTTP status can be is an error, not a null.
    with pytest.raises(ValueError, match="status"):
        feedmill.parse_batch(pa.record_batch({"body": [RSS],
                                              "status": pa.array([2**63], pa.uint64())}))


@pytest.mark.parametrize(
    "args, kwargs, exc, match",
    [
        ((), {"batch_size": -1}, ValueError, "batch_size must be a positive integer"),
        ((-1,), {}, ValueError, "batch_size must be a positive integer"),
        ((), {"batch_size": 0}, ValueError, "batch_size must be a positive integer"),
        ((), {"batch_size": 2**70}, ValueError, "batch_size must be a positive integer"),
        ((), {"batch_size": True}, TypeError, "batch_size must be an int"),
        ((), {"batch_size": 8.0}, TypeError, "batch_size must be an int"),
        ((), {"batch_bytes": -1}, ValueError, "batch_bytes must be a positive integer"),
        ((), {"batch_bytes": 0}, ValueError, "batch_bytes must be a positive integer"),
        ((), {"batch_bytes": "1"}, TypeError, "batch_bytes must be an int"),
    ],
)
def test_bad_batch_sizes_raise(tmp_path, args, kwargs, exc, match):
    """`read_warc_batches`' `batch_size` and `batch_bytes` are positive ints; anything else
    raises at the call, naming the argument."""
    p = tmp_path / "f.xml"
    p.write_bytes(RSS)
    with pytest.raises(exc, match=r"read_warc_batches\(\): " + match):
        feedmill.read_warc_batches(p, *args, **kwargs)
    # 1 is the least of each; more than the 1 GiB a batch holds is 1 GiB.
    assert len(list(feedmill.read_warc_batches(p, batch_size=1, batch_bytes=1))) == 1
    assert len(list(feedmill.read_warc_batches(p, batch_bytes=2**40))) == 1
