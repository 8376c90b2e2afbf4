"""Throwaway stream-vs-tree byte check: reads the stderr of the instrumented CLI (HSTAT=1),
pairs each `SS` line (throwaway streaming emitter vs the tree path's JsonHtml bytes) with its
`HS` line and counts exact matches per tier, with the first difference classified.
Usage: python3 stream_check.py /tmp/h8-hs4.txt  (run from this directory: imports tiers.py)"""
import collections
import re
import sys

src = open("tiers.py").read().split("tot=collections.Counter()")[0]
exec(src.replace("rows=[l.rstrip('\\n').split('\\t') for l in open(sys.argv[1]) if l.startswith('HS\\t')]", ""))
L = [l.rstrip("\n").split("\t") for l in open(sys.argv[1]) if l.startswith(("SS\t", "HS\t"))]
res = collections.Counter()
kinds = collections.Counter()
for a, b in zip(L[0::2], L[1::2]):
    assert a[0] == "SS" and b[0] == "HS"
    causes = [c.rsplit("@", 1)[0] for c in (b[6] if len(b) > 6 else "").split(",") if c]
    t = tier(b[1], causes)[:2]
    res[(t, "identical" if a[2] == "true" else "differs")] += 1
    if t in ("T0", "T1") and a[2] == "false":
        S = a[5]
        if "---->" in S:
            kinds["comment ended at first > (emitter shortcut)"] += 1
        else:
            kinds["pre/listing/textarea leading newline kept (emitter shortcut)"] += 1
for k in sorted(res):
    print(k, res[k])
print(kinds)
