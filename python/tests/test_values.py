"""Python values: `parse` returns the record's Arrow row as Python values (every key, None or
[] when empty, aware datetimes), and the record dict, the Arrow schema (`schema()`) and the
TypedDicts of the stub (`feedmill.record`) agree, key for key and type for type, on the
records of the corpus. Also: the bodies and arguments `parse` takes, the paths `parse_file` and the WARC readers
take, and `WarcRecord`."""

import array
import datetime as dt
import glob
import json
import os
import pathlib
import signal
import threading
import typing

import pyarrow as pa
import pytest

import feedmill
from feedmill import record as rec_types
from conftest import ROOT, run_cli

UTC = dt.timezone.utc

ATOM = b"""<?xml version="1.0" encoding="utf-8"?>
<feed xmlns="http://www.w3.org/2005/Atom"><title>News</title>
<updated>2024-01-02T03:04:05Z</updated>
<entry><title>First</title><updated>2024-01-02T03:04:05.5Z</updated></entry></feed>"""


def corpus_files(step=1):
    files = sorted(p for p in glob.glob(os.path.join(ROOT, "corpus", "real", "*", "*"))
                   if os.path.isfile(p))
    return files[::step]


def fixture_files():
    """Fixtures with the most kinds of values: podcasts, media, JSON Feed, modules."""
    pats = ["podcast*", "*media*", "*json*", "*itunes*", "*module*", "*rss1*", "*atom*"]
    out = set()
    for p in pats:
        out.update(glob.glob(os.path.join(ROOT, "corpus", "fixtures", "**", p), recursive=True))
    return sorted(f for f in out if os.path.isfile(f) and not f.endswith(".json"))


def read(path):
    with open(path, "rb") as fh:
        return fh.read()


# The TypedDicts' types, resolved ("Person" -> the class).
def hints(cls):
    return typing.get_type_hints(cls)


def check(value, arrow_type, py_type, where):
    """`value` is a value of the Arrow type and of the Python type (from the TypedDict)."""
    origin = typing.get_origin(py_type)
    if origin is typing.Union:  # Optional[X]
        (inner,) = [a for a in typing.get_args(py_type) if a is not type(None)]
        if value is None:
            return
        return check(value, arrow_type, inner, where)
    if origin is list:
        assert pa.types.is_list(arrow_type), where
        assert isinstance(value, list), where
        (item,) = typing.get_args(py_type)
        for i, v in enumerate(value):
            check(v, arrow_type.value_type, item, f"{where}[{i}]")
        return
    if typing.is_typeddict(py_type):
        assert pa.types.is_struct(arrow_type), where
        check_struct(value, [arrow_type.field(i) for i in range(arrow_type.num_fields)],
                     py_type, where)
        return
    want = {
        str: pa.types.is_string,
        int: pa.types.is_int64,
        float: pa.types.is_float64,
        bool: pa.types.is_boolean,
        dt.datetime: pa.types.is_timestamp,
    }[py_type]
    assert want(arrow_type), f"{where}: {arrow_type} for {py_type}"
    assert type(value) is py_type, f"{where}: {value!r} is no {py_type}"
    if py_type is dt.datetime:
        assert arrow_type.tz == "UTC" and value.tzinfo is not None, where
        assert value.utcoffset() == dt.timedelta(0), where


def check_struct(value, fields, cls, where):
    assert isinstance(value, dict), where
    types = hints(cls)
    # The same keys in the same order: the dict's, the Arrow struct's, the TypedDict's.
    assert list(value) == [f.name for f in fields] == list(types), where
    for f in fields:
        check(value[f.name], f.type, types[f.name], f"{where}.{f.name}")


def test_record_dict_arrow_schema_and_typed_dicts_agree():
    schema = feedmill.schema()
    files = fixture_files() + corpus_files(step=7)
    assert len(files) > 40
    seen_dates = seen_entries = 0
    for path in files:
        r = feedmill.parse(read(path), url="https://example.org/feed")
        check_struct(r, list(schema), rec_types.Record, path)
        # The same values as pyarrow gives for the Arrow row of the same record.
        arrow = feedmill.parse_batch(
            pa.record_batch({"body": [read(path)], "url": ["https://example.org/feed"]})
        ).to_pylist()[0]
        assert r == arrow, path
        f = r["feed"] or {}
        seen_entries += len(f.get("entries") or [])
        seen_dates += sum(1 for e in f.get("entries") or [] if e["updated"] or e["published"])
    assert seen_entries > 500 and seen_dates > 300


def test_parse_gives_every_key_and_aware_datetimes():
    r = feedmill.parse(ATOM)
    f = r["feed"]
    assert f["updated"] == dt.datetime(2024, 1, 2, 3, 4, 5, tzinfo=UTC)
    e = f["entries"][0]
    assert e["updated"] == dt.datetime(2024, 1, 2, 3, 4, 5, 500000, tzinfo=UTC)
    assert e["updated"].tzinfo is not None
    # Keys without a value are there: None, or [] for a list.
    assert e["published"] is None and e["authors"] == [] and e["enclosures"] == []
    assert f["subtitle"] is None and f["image"] is None
    assert r["error"] is None and r["findings"] == []
    assert set(e) == set(typing.get_type_hints(rec_types.Entry))


def to_json(value):
    """A value in the JSON Lines form: null, empty lists and empty objects left out."""
    if isinstance(value, dict):
        out = {k: to_json(v) for k, v in value.items()}
        return {k: v for k, v in out.items() if v is not None and v != [] and v != {}}
    if isinstance(value, list):
        return [to_json(v) if not isinstance(v, dict) else to_json(v) for v in value]
    return value


def same(mine, theirs, where):
    """`mine` (Python values, JSON form) equals the CLI's JSON value; a datetime equals its
    RFC 3339 string up to microseconds."""
    if isinstance(mine, dt.datetime):
        s = theirs.replace("Z", "+00:00")
        if "." in s:
            whole, rest = s.split(".", 1)
            digits = rest[: rest.index("+")]
            s = f"{whole}.{(digits + '000000')[:6]}+00:00"
        assert mine == dt.datetime.fromisoformat(s), where
    elif isinstance(mine, dict):
        assert isinstance(theirs, dict) and list(mine) == list(theirs), (where, mine, theirs)
        for k in mine:
            same(mine[k], theirs[k], f"{where}.{k}")
    elif isinstance(mine, list):
        assert isinstance(theirs, list) and len(mine) == len(theirs), where
        for i, (a, b) in enumerate(zip(mine, theirs)):
            same(a, b, f"{where}[{i}]")
    else:
        assert mine == theirs, (where, mine, theirs)


def test_parse_values_are_the_cli_records(cli, tmp_path):
    files = corpus_files(step=5)
    out = tmp_path / "o.jsonl"
    run_cli(cli, ["-o", str(out), *files])
    lines = [json.loads(l) for l in out.read_text().split("\n") if l]
    assert len(lines) == len(files)
    for path, want in zip(files, lines):
        mine = to_json(feedmill.parse(read(path), source=want["source"]))
        same(mine, want, path)


def test_bodies_any_bytes_like_object_or_str():
    want = feedmill.parse(ATOM)
    for body in [bytearray(ATOM), memoryview(ATOM), array.array("B", ATOM),
                 memoryview(b"xx" + ATOM)[2:]]:
        assert feedmill.parse(body) == want, type(body)
    # A str is decoded text: read as UTF-8 whatever the declaration says.
    text = "<?xml version='1.0' encoding='iso-8859-1'?><rss version='2.0'><channel>" \
           "<title>caf\u00e9 \u2014 \U0001F600</title></channel></rss>"
    r = feedmill.parse(text)
    assert r["feed"]["title"] == "caf\u00e9 \u2014 \U0001F600"
    assert r["encoding"] == "UTF-8"
    assert feedmill.parse(text, spec_exact=True)["feed"]["title"] == r["feed"]["title"]
    # The same document as bytes follows its declaration (spec-exact; the recovery rule
    # reads UTF-8 bytes under a wrong declaration as UTF-8, and says so).
    exact = feedmill.parse(text.encode("utf-8"), spec_exact=True)
    assert exact["feed"]["title"] == "caf\u00c3\u00a9 \u00e2\u20ac\u201d \u00f0\u0178\u02dc\u20ac"
    guessed = feedmill.parse(text.encode("utf-8"))
    assert guessed["feed"]["title"] == r["feed"]["title"]
    assert [d["kind"] for d in guessed["diagnostics"]] == ["encoding_guessed"]
    for bad in [123, ["<rss/>"], {"body": b""}, 1.5]:
        with pytest.raises(TypeError, match="body must be"):
            feedmill.parse(bad)
    # None is a record without a body (an error record, not an exception).
    r = feedmill.parse(None)
    assert r["status"] == "error" and r["error"]["kind"] == "no_body"


def test_parse_file(tmp_path):
    p = tmp_path / "feed.xml"
    p.write_bytes(ATOM)
    for arg in [str(p), p]:
        r = feedmill.parse_file(arg)
        assert r["source"] == str(p)
        assert r["feed"]["title"] == "News"
    # gzip is removed, as the CLI does.
    import gzip

    g = tmp_path / "feed.xml.gz"
    g.write_bytes(gzip.compress(ATOM))
    assert feedmill.parse_file(g)["feed"]["title"] == "News"
    with pytest.raises(FileNotFoundError):
        feedmill.parse_file(tmp_path / "missing.xml")
    (tmp_path / "two").mkdir()
    (tmp_path / "two" / "a.xml").write_bytes(ATOM)
    (tmp_path / "two" / "b.xml").write_bytes(ATOM)
    with pytest.raises(ValueError, match="other than one document"):
        feedmill.parse_file(tmp_path / "two")
    assert feedmill.parse_file(p, max_entries=0)["feed"]["entries"] == []


def test_warc_record_exists_and_parse_takes_it(warcs, tmp_path):
    assert typing.is_typeddict(feedmill.WarcRecord)
    raws = list(feedmill.read_warc(warcs[1]))
    assert list(raws[0]) == list(typing.get_type_hints(feedmill.WarcRecord))
    parsed = list(feedmill.read_warc(warcs[1], parse=True))
    assert len(raws) == len(parsed) == 300
    for raw, want in zip(raws, parsed):
        assert feedmill.parse(**raw) == want, raw["source"]
    assert {p["status"] for p in parsed} == {"ok", "not_a_feed", "error"}
    # With a base URL too, and error records without a URL of their own (the cut archive's
    # last): their `url` is the base URL.
    base = "http://base.example/"
    cut = tmp_path / "cut.warc.gz"
    data = open(warcs[1], "rb").read()
    cut.write_bytes(data[: len(data) // 2])
    for path in [warcs[1], str(cut)]:
        raws = list(feedmill.read_warc(path))
        parsed = list(feedmill.read_warc(path, parse=True, base_url=base))
        assert len(raws) == len(parsed)
        for raw, want in zip(raws, parsed):
            assert feedmill.parse(**raw, base_url=base) == want, raw["source"]
    assert parsed[-1]["status"] == "error" and parsed[-1]["url"] == base


def warc_gz_with_notes(path):
    """A WARC.gz of one gzip member per record: a good response, one whose Content-Length (12)
    does not end it (read to its member's end, with a note), and one as wrong whose block is
    no HTTP message (an error record whose message carries the note)."""
    import gzip

    def response(n, block, length=None):
        head = (f"WARC/1.1\r\nWARC-Type: response\r\nWARC-Record-ID: <urn:uuid:{n}>\r\n"
                f"WARC-Date: 2024-01-0{n}T00:00:00Z\r\nWARC-Target-URI: http://{n}.example/rss\r\n"
                "Content-Type: application/http;msgtype=response\r\n"
                f"Content-Length: {len(block) if length is None else length}\r\n\r\n")
        return gzip.compress(head.encode() + block + b"\r\n\r\n")

    feed = b'<rss version="2.0"><channel><title>t</title></channel></rss>'
    http = (b"HTTP/1.1 200 OK\r\nContent-Type: application/rss+xml\r\n"
            b"Content-Length: %d\r\n\r\n" % len(feed) + feed)
    path.write_bytes(response(1, http) + response(2, http, 12)
                     + response(3, b"no http message here", 5))
    return str(path)


def test_raw_records_keep_their_notes(tmp_path):
    """How a record was read (`notes`) reaches the raw records, and `parse(**raw)` /
    `parse_batch(raw)` give the very records of `parse=True`: the note as a `recovered`
    diagnostic, or in an error record's message."""
    p = warc_gz_with_notes(tmp_path / "notes.warc.gz")
    raws = list(feedmill.read_warc(p))
    parsed = list(feedmill.read_warc(p, parse=True))
    assert [r["notes"] for r in raws][0] == []
    assert all("WARC Content-Length" in n for r in raws[1:] for n in r["notes"])
    assert [len(r["notes"]) for r in raws] == [0, 1, 1]
    assert raws[2]["body"] is None and raws[2]["notes"][0] in raws[2]["error_message"]
    for raw, want in zip(raws, parsed):
        assert feedmill.parse(**raw) == want, raw["source"]
    assert [d["kind"] for d in parsed[1]["diagnostics"]] == ["recovered"]
    assert parsed[1]["diagnostics"][0]["message"] == raws[1]["notes"][0]
    assert parsed[2]["status"] == "error"
    assert parsed[2]["error"]["message"] == raws[2]["error_message"]
    batches = list(feedmill.read_warc_batches(p, batch_size=2))
    assert pa.Table.from_batches(batches).column("notes").to_pylist() == [r["notes"] for r in raws]
    got = pa.Table.from_batches([feedmill.parse_batch(b) for b in batches])
    assert got.equals(pa.Table.from_batches(list(feedmill.read_warc_batches(p, parse=True))))
    # A notes column of another type is a TypeError; an all-null one is no notes.
    bad = batches[0].set_column(batches[0].schema.get_field_index("notes"), "notes",
                                pa.array(["x"] * batches[0].num_rows))
    with pytest.raises(TypeError, match="notes"):
        feedmill.parse_batch(bad)
    none = batches[0].set_column(batches[0].schema.get_field_index("notes"), "notes",
                                 pa.nulls(batches[0].num_rows))
    assert feedmill.parse_batch(none).column("diagnostics").to_pylist()[1] == []


def test_read_warc_batches_parse_is_parse_batch(warcs):
    for layout in ["records", "entries"]:
        raw = [feedmill.parse_batch(b, layout=layout, extract=True)
               for b in feedmill.read_warc_batches(warcs[1], batch_size=50)]
        parsed = list(feedmill.read_warc_batches(warcs[1], batch_size=50, parse=True,
                                                 layout=layout, extract=True))
        assert pa.Table.from_batches(raw).equals(pa.Table.from_batches(parsed))
        assert parsed[0].schema == feedmill.schema(layout)


def test_a_read_warc_batches_iterator_shared_by_threads_loses_no_record(warcs):
    """Threads sharing one iterator each get whole batches; every record comes out once."""
    import threading

    want = [r["source"] for r in feedmill.read_warc(warcs[0])]
    it = feedmill.read_warc_batches(warcs[0], batch_size=7, batch_bytes=20_000)
    got, lock = [], threading.Lock()

    def drain():
        for b in it:
            with lock:
                got.append(b.column("source").to_pylist())

    threads = [threading.Thread(target=drain) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    flat = [s for b in got for s in b]
    assert sorted(flat) == sorted(want)
    # Each batch is a run of consecutive records.
    at = {s: i for i, s in enumerate(want)}
    for b in got:
        assert [at[s] for s in b] == list(range(at[b[0]], at[b[0]] + len(b)))


def test_a_path_is_a_path(tmp_path, monkeypatch):
    """`-` is a file named `-` for read_warc as for parse_file, never standard input."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "-").write_bytes(ATOM)
    assert feedmill.parse_file("-")["feed"]["title"] == "News"
    (rec,) = list(feedmill.read_warc("-", parse=True))
    assert (rec["source"], rec["feed"]["title"]) == ("-", "News")


def test_parse_file_path_like(tmp_path):
    p = tmp_path / "f.xml"
    p.write_bytes(ATOM)
    assert feedmill.parse_file(pathlib.PurePath(p).as_posix())["status"] == "ok"


def test_capture_is_read_back_and_checked(warcs):
    raw = next(r for r in feedmill.read_warc(warcs[1]) if r["body"])
    assert raw["capture"]["record_type"] == "response"
    assert feedmill.parse(**raw)["capture"] == raw["capture"]
    # The capture date is when `future` is judged: a 2025 entry is ahead of a 2024 capture.
    body = (b'<rss version="2.0"><channel><item><title>a</title>'
            b'<pubDate>Wed, 01 Jan 2025 00:00:00 GMT</pubDate></item></channel></rss>')
    capture = {"record_type": "response", "date": dt.datetime(2024, 1, 1, tzinfo=dt.timezone.utc)}
    flags = [feedmill.parse(body, capture=c, extract=True)["feed"]["entries"][0]["date_flags"]
             for c in [capture, None]]
    assert flags == [["future"], []]
    with pytest.raises(ValueError, match="record_type"):
        feedmill.parse(**{**raw, "capture": {**raw["capture"], "record_type": "request"}})
    with pytest.raises(ValueError, match="http_status"):
        feedmill.parse(**{**raw, "capture": {**raw["capture"], "http_status": 70000}})
    batch = next(iter(feedmill.read_warc_batches(warcs[1], batch_size=4)))
    assert batch.schema.field("capture").type == feedmill.schema().field("capture").type
    bad = batch.set_column(batch.schema.get_field_index("capture"), "capture",
                           pa.array(["x"] * batch.num_rows))
    with pytest.raises(TypeError, match="capture"):
        feedmill.parse_batch(bad)


def test_a_released_memoryview_says_so():
    """A bytes-like body that cannot give its bytes is a ValueError saying why (CPython's
    error as its cause), not a TypeError about the body's type."""
    view = memoryview(ATOM)
    view.release()
    with pytest.raises(ValueError, match=r"parse\(\): body cannot be read: .*released") as e:
        feedmill.parse(view)
    assert isinstance(e.value.__cause__, ValueError)


def test_status_is_an_int():
    """`status` is an int or None: a bool or another type is a TypeError, an int past 64 bits
    a ValueError (as a parse_batch column value), both naming `status`; an int outside
    0..=65535 (no status line carries it) is a `bad_http` error record, as in a batch."""
    for bad in [True, False, 200.0, "200"]:
        with pytest.raises(TypeError, match=r"parse\(\): status must be an int or None"):
            feedmill.parse(ATOM, status=bad)
    for big in [2**63, -(2**63) - 1, 2**100]:
        with pytest.raises(ValueError, match=r"parse\(\): status must be an HTTP status code"):
            feedmill.parse(ATOM, status=big)
    for odd in [2**63 - 1, -1, 70000]:
        r = feedmill.parse(ATOM, status=odd)
        assert r["error"] == {"kind": "bad_http", "message": f'bad status line "HTTP/1.1 {odd} -"'}
        row = feedmill.parse_batch(pa.record_batch({"body": [ATOM], "status": [odd]})).to_pylist()
        assert row[0]["error"] == r["error"]
    # 0..=65535 is what a WARC record's status line can give (`parse(**record)` takes it):
    # not 200, so not a feed.
    assert feedmill.parse(ATOM, status=0)["error"] == {"kind": "http_status",
                                                       "message": "HTTP status 0"}
    assert feedmill.parse(ATOM, status=None) == feedmill.parse(ATOM)
    assert feedmill.parse(ATOM, status=404)["error"]["kind"] == "http_status"


def test_an_empty_url_is_no_url():
    """`url=""` is no URL, with `status` (an HTTP response) or without (a document, which
    then has `base_url`), in `parse` and in a `parse_batch` column, error records too."""
    rss = b'<rss version="2.0"><channel><title>t</title><link>/home</link></channel></rss>'
    base = "https://b.example/feed"
    for kw in [{}, {"status": 200}, {"content_type": "application/rss+xml"},
               {"base_url": base}, {"status": 200, "base_url": base},
               {"error_kind": "io", "error_message": "x", "base_url": base}]:
        assert feedmill.parse(rss, url="", **kw) == feedmill.parse(rss, **kw), kw
    assert feedmill.parse(rss, url="", base_url=base)["feed"]["page_url"] == "https://b.example/home"
    assert feedmill.parse(None, url="", base_url=base)["url"] == base
    batch = pa.record_batch({"body": [rss, rss, None], "url": ["", None, ""]})
    rows = feedmill.parse_batch(batch, base_url=base).to_pylist()
    assert rows[0] == rows[1] and rows[0]["status"] == "ok"
    assert rows[2]["url"] == base


def test_paths_as_open_takes_them(tmp_path):
    """A path is a str, bytes (the file system's bytes) or an os.PathLike giving either, as
    Python's open() takes it; another type is a TypeError naming `path`."""
    p = tmp_path / "feed.xml"
    p.write_bytes(ATOM)

    class BytesPath:
        def __fspath__(self):
            return os.fsencode(str(p))

    for arg in [str(p), p, os.fsencode(str(p)), BytesPath()]:
        assert feedmill.parse_file(arg)["source"] == str(p), arg
        (rec,) = feedmill.read_warc(arg, parse=True)
        assert rec["feed"]["title"] == "News", arg
        (batch,) = feedmill.read_warc_batches(arg)
        assert batch.column("source").to_pylist() == [str(p)], arg
    if os.name == "posix":
        # A name that is no UTF-8: its bytes reach the file system as they are.
        odd = os.path.join(os.fsencode(str(tmp_path)), b"caf\xe9.xml")
        with open(odd, "wb") as fh:
            fh.write(ATOM)
        assert feedmill.parse_file(odd)["feed"]["title"] == "News"
        assert next(feedmill.read_warc(odd, parse=True))["feed"]["title"] == "News"
    for bad in [3, None, ["x"]]:
        for call in [feedmill.parse_file, feedmill.read_warc, feedmill.read_warc_batches]:
            with pytest.raises(TypeError, match=r"\(\): path must be a str, bytes or os.PathLike"):
                call(bad)


def test_a_pipe_is_read_as_a_stream(tmp_path):
    """`/dev/fd/N` of a pipe (what a shell's `<(zcat x)` gives) is read to its end."""
    if not os.path.isdir("/dev/fd"):
        pytest.skip("no /dev/fd")
    r, w = os.pipe()
    try:
        os.write(w, ATOM)
        os.close(w)
        assert feedmill.parse_file(f"/dev/fd/{r}")["feed"]["title"] == "News"
    finally:
        os.close(r)


def first_record(path):
    return next(feedmill.read_warc(path))


def first_batch(path):
    return next(feedmill.read_warc_batches(path))


@pytest.mark.skipif(not hasattr(os, "mkfifo") or not hasattr(signal, "pthread_kill"),
                    reason="POSIX FIFOs and signals")
@pytest.mark.parametrize("read", [feedmill.parse_file, first_record, first_batch])
def test_ctrl_c_interrupts_the_wait_for_a_fifo(tmp_path, read):
    """A call waiting for its input (a FIFO without a writer blocks in open(), one without
    data in read()) raises KeyboardInterrupt on Ctrl-C. The writer end is opened (which
    returns once the call's reader has opened the FIFO) and SIGINT sent to the main thread:
    the call raises while the writer is still open, before any end of the data."""
    if signal.getsignal(signal.SIGINT) is not signal.default_int_handler:
        pytest.skip("SIGINT is not Python's default KeyboardInterrupt handler here")
    fifo = str(tmp_path / "fifo")
    os.mkfifo(fifo)
    main = threading.main_thread().ident
    raised, closed = threading.Event(), threading.Event()

    def writer():
        fd = os.open(fifo, os.O_WRONLY)
        signal.pthread_kill(main, signal.SIGINT)
        # Only for a call that ignores the signal: end its wait, so that the test fails
        # instead of hanging.
        raised.wait(60)
        closed.set()
        os.close(fd)

    t = threading.Thread(target=writer)
    t.start()
    try:
        with pytest.raises(KeyboardInterrupt):
            read(fifo)
        assert not closed.is_set(), "the call returned only once the writer closed the FIFO"
    finally:
        raised.set()
        t.join()


def test_capture_keys_and_dates_are_checked():
    """Nothing given in `capture` is dropped silently: an unknown key (in it or in its
    `refers_to`) is a TypeError naming the keys there are; a naive datetime is a
    ValueError (which zone it means is unknown); `date_offset` and `date_raw`, which a
    capture never has, must be None."""
    aware = dt.datetime(2024, 1, 1, tzinfo=UTC)
    with pytest.raises(TypeError, match=r"capture has unknown keys 'dat' \(its keys: "
                                        r"record_type, date, date_offset"):
        feedmill.parse(ATOM, capture={"record_type": "response", "dat": aware})
    with pytest.raises(TypeError, match=r"capture\[\"refers_to\"\] has unknown keys 'sauce'"):
        feedmill.parse(ATOM, capture={"refers_to": {"sauce": "x"}})
    with pytest.raises(TypeError, match=r"capture has unknown keys 1"):
        feedmill.parse(ATOM, capture={1: "x"})
    for c in [{"date": dt.datetime(2024, 1, 1)}, {"refers_to": {"date": dt.datetime(2024, 1, 1)}}]:
        with pytest.raises(ValueError, match=r"\[\"date\"\] must be an aware datetime"):
            feedmill.parse(ATOM, capture=c)
    for key in ["date_offset", "date_raw"]:
        with pytest.raises(ValueError, match=rf"capture\[\"{key}\"\] must be None"):
            feedmill.parse(ATOM, capture={"date": aware, key: 0 if key == "date_offset" else "x"})
    with pytest.raises(TypeError, match=r"capture must be a dict"):
        feedmill.parse(ATOM, capture=[("record_type", "response")])
    with pytest.raises((TypeError, ValueError), match=r"parse\(\): capture: "):
        feedmill.parse(ATOM, capture={"http_status": "200"})
    # An aware datetime in any zone is its instant; keys given as None have no value.
    plus2 = dt.datetime(2024, 1, 1, 2, tzinfo=dt.timezone(dt.timedelta(hours=2)))
    got = feedmill.parse(ATOM, capture={"date": plus2, "date_offset": None, "refers_to": None})
    assert got["capture"]["date"] == aware
