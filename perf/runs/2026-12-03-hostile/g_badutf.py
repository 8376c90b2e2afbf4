# document of n invalid UTF-8 bytes (0xff); mode rss: inside an RSS description (no encoding declared -> UTF-8 pass with one
# decoder call per malformed byte); mode html: an HTML page declaring charset=utf-8 (for discover)
import sys
mode=sys.argv[1]; n=int(sys.argv[2]); out=sys.argv[3]
if mode=="rss":
    d=b'<?xml version="1.0"?><rss version="2.0"><channel><title>t</title><description>'+b"\xff"*n+b'</description></channel></rss>'
elif mode=="rssdecl":
    d=b'<?xml version="1.0" encoding="utf-8"?><rss version="2.0"><channel><title>t</title><description>'+b"\xff"*n+b'</description></channel></rss>'
elif mode=="sjis":
    d=b'<?xml version="1.0" encoding="Shift_JIS"?><rss version="2.0"><channel><title>t</title><description>'+b"\xff"*n+b'</description></channel></rss>'
else:
    d=b'<!doctype html><html><head><meta charset="utf-8"><link rel="alternate" type="application/rss+xml" href="/f.xml"></head><body>'+b"\xff"*n+b'</body></html>'
open(out,"wb").write(d)
