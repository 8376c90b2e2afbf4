# tar whose one member (pax path of `namelen` bytes 0xff, not UTF-8) is a WARC of `nrec` small response records
import sys, tarfile, io; sys.path.insert(0,__import__('os').path.dirname(__import__('os').path.abspath(__file__))); from warcgen import record
namelen=int(sys.argv[1]); nrec=int(sys.argv[2]); out=sys.argv[3]
body=b'<rss version="2.0"><channel><title>t</title></channel></rss>'
warc=record(b"http://a/", body)*nrec
name=("\udcff"*namelen)  # surrogateescape -> raw 0xff bytes
ti=tarfile.TarInfo(name); ti.size=len(warc)
with tarfile.open(out,"w",format=tarfile.PAX_FORMAT,encoding="utf-8",errors="surrogateescape") as t:
    t.addfile(ti, io.BytesIO(warc))
