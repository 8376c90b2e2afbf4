#!/usr/bin/env python3
"""Generate a large WARC.gz crawl archive from the real-feed corpus, for benchmarking the CLI;
or the same records as ARC.gz (`--format arc`) or WARC.zst (`--compression zst`).

Python 3 standard library only (zstd frames through ctypes and the system's libzstd.so.1).
Writes where -o says (never into the repository).

Each record is its own gzip member (or zstd frame), as crawlers write them. Per round over the corpus feeds
the archive holds, for every feed, one `request` record (skipped by feedmill) and one
`response` record; responses vary deterministically (seeded):
  ~80% 200 with the feed's MIME type and charset, ~8% 200 gzip + chunked,
  ~4% 200 text/html page (not a feed), ~4% 404, ~2% 301, ~2% 200 with a corrupt gzip body.
A `metadata` record follows every 50th response.

`--format arc` writes the same responses as ARC v1 records (a `filedesc://` version block first;
no request or metadata records: ARC has none), `--compression zst` each record as a zstd frame
(level 3, no dictionary; `--compression none` writes the records as they are). The response
blocks are the same bytes in every format, so the jobs over them parse the same documents.

Usage:
  python3 perf/gen_archive.py -o "$(mktemp -d)/bench.warc.gz"   # 200000 responses
  python3 perf/gen_archive.py --records 20000 -o /tmp/small.warc.gz
  python3 perf/gen_archive.py --min-bytes 1e9 -o X        # stop once the file is >= 1 GB (or --records)
  python3 perf/gen_archive.py --records 5000 --format arc -o /tmp/a.arc.gz
  python3 perf/gen_archive.py --records 5000 --compression zst -o /tmp/a.warc.zst
"""
import ctypes
import argparse
import gzip
import io
import os
import random
import sys
import zlib

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MIME = {"rss2": "application/rss+xml", "rss1": "application/rdf+xml", "atom": "application/atom+xml",
        "atom03": "application/atom+xml"}


def load_feeds(corpus):
    feeds = []
    for fmt in sorted(MIME):
        d = os.path.join(corpus, fmt)
        if not os.path.isdir(d):
            continue
        for name in sorted(os.listdir(d)):
            with open(os.path.join(d, name), "rb") as f:
                feeds.append((fmt, name, f.read()))
    if not feeds:
        sys.exit(f"no feeds under {corpus}")
    return feeds


def member(record: bytes, level: int) -> bytes:
    # mtime=0: deterministic output for a given seed.
    return gzip.compress(record, compresslevel=level, mtime=0)


_ZSTD = None


def zstd_frame(record: bytes, level: int = 3) -> bytes:
    """One zstd frame of `record` (libzstd's ZSTD_compress; exits when there is no libzstd)."""
    global _ZSTD
    if _ZSTD is None:
        try:
            _ZSTD = ctypes.CDLL("libzstd.so.1")
        except OSError as e:
            sys.exit(f"--compression zst needs libzstd.so.1: {e}")
        _ZSTD.ZSTD_compressBound.restype = ctypes.c_size_t
        _ZSTD.ZSTD_compressBound.argtypes = [ctypes.c_size_t]
        _ZSTD.ZSTD_compress.restype = ctypes.c_size_t
        _ZSTD.ZSTD_compress.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_char_p, ctypes.c_size_t,
                                        ctypes.c_int]
        _ZSTD.ZSTD_isError.argtypes = [ctypes.c_size_t]
    cap = _ZSTD.ZSTD_compressBound(len(record))
    out = ctypes.create_string_buffer(cap)
    n = _ZSTD.ZSTD_compress(out, cap, record, len(record), level)
    if _ZSTD.ZSTD_isError(n):
        sys.exit("ZSTD_compress failed")
    return out.raw[:n]


def arc(uri: str, block: bytes) -> bytes:
    """An ARC v1 record: the header line (URL IP-address Archive-date Content-type
    Archive-length), the block, a line end."""
    return f"{uri} 192.0.2.1 20240101000000 application/http {len(block)}\n".encode() + block + b"\n"


def arc_filedesc(name: str) -> bytes:
    block = b"1 0 feedmill perf/gen_archive.py\nURL IP-address Archive-date Content-type Archive-length\n"
    return f"filedesc://{name} 0.0.0.0 20240101000000 text/plain {len(block)}\n".encode() + block + b"\n"


def warc(wtype: str, uri: str, n: int, block: bytes) -> bytes:
    head = (f"WARC/1.0\r\nWARC-Type: {wtype}\r\nWARC-Record-ID: <urn:uuid:00000000-0000-0000-0000-{n:012d}>\r\n"
            f"WARC-Date: 2024-01-01T00:00:00Z\r\nWARC-Target-URI: {uri}\r\n"
            f"Content-Type: application/http; msgtype={wtype}\r\nContent-Length: {len(block)}\r\n\r\n")
    return head.encode() + block + b"\r\n\r\n"


def http(status: str, headers, body: bytes) -> bytes:
    h = "".join(f"{k}: {v}\r\n" for k, v in headers)
    return f"HTTP/1.1 {status}\r\n{h}\r\n".encode() + body


def chunked(body: bytes, size=8192) -> bytes:
    out = io.BytesIO()
    for i in range(0, len(body), size):
        part = body[i:i + size]
        out.write(b"%x\r\n" % len(part) + part + b"\r\n")
    out.write(b"0\r\n\r\n")
    return out.getvalue()


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("-o", "--output", required=True, help="the WARC.gz to write")
    ap.add_argument("--records", type=int, default=200_000, help="response records (default 200000)")
    ap.add_argument("--min-bytes", type=float, default=0,
                    help="stop early once the archive is at least this many bytes (default: off)")
    ap.add_argument("--corpus", default=os.path.join(ROOT, "corpus", "real"))
    ap.add_argument("--level", type=int, default=1, help="gzip level per member (default 1: fast)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--format", choices=["warc", "arc"], default="warc", help="record format (default warc)")
    ap.add_argument("--compression", choices=["gz", "zst", "none"], default="gz",
                    help="each record a gzip member, a zstd frame, or as is (default gz)")
    args = ap.parse_args()
    out_path = os.path.abspath(args.output)
    if out_path.startswith(ROOT + os.sep):
        sys.exit("refusing to write a generated archive inside the repository")

    feeds = load_feeds(args.corpus)
    rnd = random.Random(args.seed)
    n = 0
    responses = 0
    raw = 0
    def pack(record: bytes) -> bytes:
        if args.compression == "gz":
            return member(record, args.level)
        if args.compression == "zst":
            return zstd_frame(record)
        return record

    is_arc = args.format == "arc"
    with open(out_path, "wb") as out:
        if is_arc:
            out.write(pack(arc_filedesc(os.path.basename(out_path))))
        else:
            out.write(pack(warc("warcinfo", "", 0, b"software: feedmill perf/gen_archive.py\r\n")))
        while responses < args.records and (not args.min_bytes or out.tell() < args.min_bytes):
            fmt, name, body = feeds[responses % len(feeds)]
            uri = f"http://feeds.example/{responses // len(feeds)}/{fmt}/{name}"
            n += 1
            if not is_arc:
                out.write(pack(warc("request", uri, n,
                                    f"GET /{name} HTTP/1.1\r\nHost: feeds.example\r\n\r\n".encode())))
            r = rnd.random()
            ctype = f"{MIME[fmt]}; charset=utf-8" if rnd.random() < 0.5 else MIME[fmt]
            if r < 0.80:
                block = http("200 OK", [("Content-Type", ctype), ("Content-Length", len(body))], body)
            elif r < 0.88:
                block = http("200 OK", [("Content-Type", ctype), ("Content-Encoding", "gzip"),
                                        ("Transfer-Encoding", "chunked")],
                             chunked(gzip.compress(body, compresslevel=1, mtime=0)))
            elif r < 0.92:
                block = http("200 OK", [("Content-Type", "text/html; charset=utf-8")],
                             b"<!DOCTYPE html><html><head><title>x</title></head><body>" + b"<p>page</p>" * 200 + b"</body></html>")
            elif r < 0.96:
                block = http("404 Not Found", [("Content-Type", "text/html")], b"<html>not found</html>")
            elif r < 0.98:
                block = http("301 Moved Permanently", [("Location", uri + "?moved")], b"")
            else:
                block = http("200 OK", [("Content-Type", ctype), ("Content-Encoding", "gzip")],
                             b"\x1f\x8b\x08\x00corrupt" + body[:1000])
            n += 1
            rec = arc(uri, block) if is_arc else warc("response", uri, n, block)
            raw += len(rec)
            out.write(pack(rec))
            responses += 1
            if responses % 50 == 0 and not is_arc:
                n += 1
                out.write(pack(warc("metadata", uri, n, b"fetchTimeMs: 120\r\n")))
            if responses % 20000 == 0:
                print(f"{responses} responses, {out.tell() / 1e9:.2f} GB", file=sys.stderr)
        size = out.tell()
    print(f"wrote {out_path}: {responses} response records, {size / 1e9:.2f} GB compressed, "
          f"{raw / 1e9:.2f} GB of {args.format.upper()} records", file=sys.stderr)


if __name__ == "__main__":
    main()
