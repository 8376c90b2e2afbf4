#!/usr/bin/env python3
"""Writes a JSON Feed 1.1 corpus for measuring the JSON Feed lint (corpus/real holds no JSON
Feed): one JSON Feed per RSS 2.0 feed of corpus/real that Python's XML parser reads, with the
channel's title, link and description and each item's guid (or link), link, title,
description (as content_html), pubDate (as an RFC 3339 date when it parses) and enclosure (as an
attachment). Values as the feeds give them, so the lint sees what a converter would publish.
Usage: make_json_corpus.py OUT_DIR (from the repository root)."""
import email.utils
import json
import os
import sys
import xml.etree.ElementTree as ET

out = sys.argv[1]
os.makedirs(out, exist_ok=True)
src = "corpus/real/rss2"
n = 0
for name in sorted(os.listdir(src)):
    try:
        root = ET.parse(os.path.join(src, name)).getroot()
    except Exception:
        continue
    ch = root.find("channel")
    if ch is None:
        continue
    text = lambda e, k: (e.findtext(k) or "").strip()
    feed = {"version": "https://jsonfeed.org/version/1.1", "title": text(ch, "title"),
            "home_page_url": text(ch, "link"), "description": text(ch, "description"), "items": []}
    for it in ch.findall("item"):
        item = {"id": text(it, "guid") or text(it, "link"), "url": text(it, "link"),
                "title": text(it, "title"), "content_html": text(it, "description")}
        d = text(it, "pubDate")
        try:
            item["date_published"] = email.utils.parsedate_to_datetime(d).isoformat()
        except Exception:
            pass
        enc = it.find("enclosure")
        if enc is not None:
            a = {"url": enc.get("url", ""), "mime_type": enc.get("type", "")}
            if (enc.get("length") or "").isdigit():
                a["size_in_bytes"] = int(enc.get("length"))
            item["attachments"] = [a]
        feed["items"].append(item)
    with open(os.path.join(out, name.rsplit(".", 1)[0] + ".json"), "w") as f:
        json.dump(feed, f, ensure_ascii=False, indent=1)
    n += 1
print(n, "feeds")
