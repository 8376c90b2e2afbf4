# WARC.gz: member 1 = a `metadata` record of p bytes (skipped) + a tiny response original (same gzip member,
# ~p decoded bytes into it); then r revisits (each with a 40-byte HTTP header block, in one gzip member)
# referring to it by record id. Each revisit re-reads the original from the file: inflates & scans p bytes.
import sys, gzip; sys.path.insert(0,__import__('os').path.dirname(__import__('os').path.abspath(__file__))); from warcgen import record
p=int(sys.argv[1]); r=int(sys.argv[2]); out=sys.argv[3]
body=b'<rss version="2.0"><channel><title>t</title></channel></rss>'
import random; random.seed(1); padb=bytes(random.choice(b"abcdefghijklmnop ") for _ in range(p)) if len(sys.argv)>4 else b"x"*p
pad=record(b"http://pad/", padb, rtype=b"metadata", http=False, ctype=b"text/plain")
orig=record(b"http://a.example/", body)
blk=b"HTTP/1.1 200 OK\r\nContent-Type: text/xml\r\n\r\n"
rev=(b"WARC/1.0\r\nWARC-Type: revisit\r\nWARC-Record-ID: <urn:uuid:22222222-1234-1234-1234-123456789abc>\r\n"
     b"WARC-Date: 2024-01-02T00:00:00Z\r\nWARC-Target-URI: http://b/\r\n"
     b"WARC-Refers-To: <urn:uuid:12345678-1234-1234-1234-123456789abc>\r\n"
     b"Content-Length: "+str(len(blk)).encode()+b"\r\n\r\n"+blk+b"\r\n\r\n")
with open(out,"wb") as f:
    f.write(gzip.compress(pad+orig))
    f.write(gzip.compress(rev*r))
