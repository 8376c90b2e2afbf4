import json, sys
n = t = tb = img = thumb = 0
src = {}
for line in open(sys.argv[1]):
    r = json.loads(line)
    for e in (r.get("feed") or {}).get("entries", []):
        n += 1
        t += "title_text" in e
        tb += e.get("title_source") == "body"
        img += "image_url" in e
        thumb += "thumbnail" in e
        if "image_source" in e:
            src[e["image_source"]] = src.get(e["image_source"], 0) + 1
pct = lambda k: f"{k} ({100*k/n:.1f} %)"
print(f"entries {n}; title_text {pct(t)} (from the body {tb}); image_url {pct(img)} {src}; thumbnail {pct(thumb)}")
