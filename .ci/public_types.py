#!/usr/bin/env python3
"""The library's public types, counted from the rustdoc of the public API (run after
`cargo doc` with the public features, as .ci/run does): fails above the budget, so the
surface grows only deliberately (raise the number here, with the reason in the commit)."""
import re
import sys

BUDGET = 108
html = open("target/doc/feedmill/all.html", encoding="utf-8").read()
kinds = ("struct", "enum", "trait", "type", "union")
types = sorted({p for p in re.findall(r'href="([^"]+)\.html"', html)
                if p.rsplit("/", 1)[-1].split(".")[0] in kinds})
print(f"{len(types)} public types (budget {BUDGET})")
if len(types) > BUDGET:
    print("\n".join(types))
    sys.exit(1)
