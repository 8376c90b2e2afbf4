#!/usr/bin/env python3
"""Value coverage: of the leaf element texts and attribute values of each XML document of a
corpus, how many reach its JSON Lines record (found as, or inside, a string value of the
record, whitespace collapsed; dates found by instant; numbers by value). Misses listed by
element name. Usage: coverage.py <records.jsonl>  (records of `feedmill corpus/real`)."""
import collections, email.utils, json, re, sys, datetime
import xml.etree.ElementTree as ET

def strings(v, out):
    if isinstance(v, dict):
        for x in v.values(): strings(x, out)
    elif isinstance(v, list):
        for x in v: strings(x, out)
    elif isinstance(v, str): out.append(v)
    elif isinstance(v, bool): pass
    elif isinstance(v, (int, float)): out.append(str(v))

ws = re.compile(r"\s+")
def norm(s): return ws.sub(" ", s).strip()

def instant(s):
    s = s.strip()
    try:
        return email.utils.parsedate_to_datetime(s).timestamp()
    except Exception: pass
    try:
        return datetime.datetime.fromisoformat(s.replace("Z", "+00:00")).timestamp()
    except Exception: return None

total = found = 0; misses = collections.Counter(); skipped = 0
for line in open(sys.argv[1]):
    rec = json.loads(line)
    src = rec["source"]
    if not src.endswith((".xml", ".rss", ".atom", ".rdf")) or rec.get("status") != "ok":
        continue
    try:
        root = ET.parse(src).getroot()
    except Exception:
        skipped += 1; continue
    vals = []; strings(rec.get("feed"), vals)
    hay = "\x00".join(norm(v) for v in vals)
    instants = {round(t) for t in (instant(v) for v in vals if len(v) < 40) if t is not None}
    def check(name, v):
        global total, found
        v = norm(v)
        if not v: return
        total += 1
        if v in hay or (instant(v) is not None and round(instant(v)) in instants):
            found += 1
        else:
            # URLs are resolved; HTML is re-serialized: try the last path segment / the text.
            tail = v.rstrip("/").rsplit("/", 1)[-1]
            plain = norm(re.sub(r"<[^>]+>", " ", v))
            if (len(tail) > 3 and tail in hay) or (plain and plain in hay):
                found += 1
            else:
                misses[name] += 1
    for el in root.iter():
        tag = el.tag
        for k, a in el.attrib.items():
            check(f"{tag}@{k}", a)
        if len(el) == 0 and el.text:
            check(tag, el.text)
print(f"{found}/{total} values found: {100*found/max(total,1):.2f} % ({skipped} documents not well-formed for ElementTree, skipped)")
print("misses by element (top 40):")
for k, n in misses.most_common(40):
    print(f"  {n:6} {k}")
