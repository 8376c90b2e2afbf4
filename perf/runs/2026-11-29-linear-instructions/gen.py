import sys
el, n, where, out = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4]
rep = "".join(el.replace("{i}", str(i)) for i in range(n))
ch = rep if where in ("channel","both") else ""
it = rep if where in ("item","both") else ""
open(out,"w").write(f"<rss version='2.0' xmlns:x='urn:x'><channel><title>t</title>{ch}<item><title>i</title>{it}</item></channel></rss>")
