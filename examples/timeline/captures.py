#!/usr/bin/env python3
"""Write a WARC.gz of several captures of each feed of a corpus, as a crawl that fetched
them day after day would: the input of the feeds-through-time recipe (docs/timeline.md).

Python 3 standard library only. Per feed (a file under CORPUS/<format>/), with its entries
(`<item>`/`<entry>` elements, found by their tags) numbered newest first as feeds list them:

- captures 1 to 4 (2024-03-01 to 2024-03-04, 06:00 UTC) are `response` records; capture k
  lacks the 4 - k newest entries (they appear one per day), and capture 4 has the oldest
  entry's title edited (" [edited]" added before its first `</title>`);
- capture 5 (2024-03-05) is a `revisit` record of capture 4 (same payload: a deduplicating
  crawler stored no body), which feedmill reads as capture 4's feed;
- each response has its `request` record, and the file starts with a `warcinfo` record:
  feedmill counts those in its summary (no output record).

Each record is its own gzip member. Output is deterministic (no randomness, gzip mtime 0).

Usage: python3 examples/timeline/captures.py [CORPUS] [-o OUT.warc.gz]
       (defaults: corpus/real, /tmp/feedmill-captures.warc.gz)
"""
import argparse
import base64
import gzip
import hashlib
import os
import re

MIME = {"rss2": "application/rss+xml", "rss1": "application/rdf+xml",
        "atom": "application/atom+xml", "atom03": "application/atom+xml"}
DAYS = ["2024-03-01", "2024-03-02", "2024-03-03", "2024-03-04", "2024-03-05"]
ENTRY = re.compile(rb"<(item|entry)[\s>].*?</\1\s*>", re.S)


def captures(body: bytes):
    """The four response bodies of a feed (see the module docs)."""
    blocks = [m.span() for m in ENTRY.finditer(body)]
    out = []
    for k in range(4):
        drop = blocks[: 4 - 1 - k]
        parts, at = [], 0
        for s, e in drop:
            parts.append(body[at:s])
            at = e
        rest = body[at:]
        if k == 3 and blocks:
            s, e = blocks[-1]
            block = body[s:e]
            t = block.find(b"</title")
            if t >= 0:
                block = block[:t] + b" [edited]" + block[t:]
            rest = body[at:s] + block + body[e:]
        out.append(b"".join(parts) + rest)
    return out


def record(wtype, uri, rid, date, block, extra=()):
    fields = [("WARC-Type", wtype), ("WARC-Record-ID", f"<urn:uuid:{rid}>"), ("WARC-Date", date)]
    if uri:
        fields.append(("WARC-Target-URI", uri))
    fields += list(extra)
    fields.append(("Content-Length", str(len(block))))
    head = "WARC/1.1\r\n" + "".join(f"{k}: {v}\r\n" for k, v in fields) + "\r\n"
    return gzip.compress(head.encode() + block + b"\r\n\r\n", mtime=0)


def digest(payload: bytes) -> str:
    return "sha1:" + base64.b32encode(hashlib.sha1(payload).digest()).decode()


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("corpus", nargs="?", default="corpus/real")
    ap.add_argument("-o", "--out", default="/tmp/feedmill-captures.warc.gz")
    args = ap.parse_args()
    feeds = []
    for fmt in sorted(MIME):
        d = os.path.join(args.corpus, fmt)
        for name in sorted(os.listdir(d)) if os.path.isdir(d) else []:
            with open(os.path.join(d, name), "rb") as f:
                feeds.append((fmt, name, f.read()))
    n = 0

    def rid():
        nonlocal n
        n += 1
        return f"00000000-0000-4000-8000-{n:012d}"

    with open(args.out, "wb") as out:
        info = b"software: examples/timeline/captures.py\r\nformat: WARC File Format 1.1\r\n"
        out.write(record("warcinfo", None, rid(), DAYS[0] + "T00:00:00Z", info,
                         [("Content-Type", "application/warc-fields")]))
        for fmt, name, body in feeds:
            uri = f"https://feeds.example/{fmt}/{name}"
            last = None
            for k, b in enumerate(captures(body)):
                date = f"{DAYS[k]}T06:00:00Z"
                req = f"GET /{fmt}/{name} HTTP/1.1\r\nHost: feeds.example\r\n\r\n".encode()
                out.write(record("request", uri, rid(), date, req,
                                 [("Content-Type", "application/http; msgtype=request")]))
                head = (f"HTTP/1.1 200 OK\r\nContent-Type: {MIME[fmt]}\r\n"
                        f"Content-Length: {len(b)}\r\n\r\n").encode()
                last = (rid(), date, digest(b), head)
                out.write(record("response", uri, last[0], date, head + b,
                                 [("Content-Type", "application/http; msgtype=response"),
                                  ("WARC-Payload-Digest", last[2])]))
            # Capture 5: the same payload as capture 4, stored as a revisit (its HTTP header only).
            out.write(record("revisit", uri, rid(), f"{DAYS[4]}T06:00:00Z", last[3], [
                ("Content-Type", "application/http; msgtype=response"),
                ("WARC-Profile", "http://netpreserve.org/warc/1.1/revisit/identical-payload-digest"),
                ("WARC-Refers-To", f"<urn:uuid:{last[0]}>"),
                ("WARC-Refers-To-Target-URI", uri),
                ("WARC-Refers-To-Date", last[1]),
                ("WARC-Payload-Digest", last[2]),
            ]))
    print(f"{args.out}: {len(feeds)} feeds x 5 captures")


if __name__ == "__main__":
    main()
