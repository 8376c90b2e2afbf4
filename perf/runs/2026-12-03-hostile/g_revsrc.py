# WARC.gz: one response with a target URI of n bytes and a tiny body, then r small revisits (short URI) referring to it by record id.
import sys, gzip; sys.path.insert(0,__import__('os').path.dirname(__import__('os').path.abspath(__file__))); from warcgen import record
n=int(sys.argv[1]); r=int(sys.argv[2]); out=sys.argv[3]
body=b'<rss version="2.0"><channel><title>t</title></channel></rss>'
orig=record(b"http://a.example/"+b"a"*n, body)
rev=(b"WARC/1.0\r\nWARC-Type: revisit\r\nWARC-Record-ID: <urn:uuid:22222222-1234-1234-1234-123456789abc>\r\n"
     b"WARC-Date: 2024-01-02T00:00:00Z\r\nWARC-Target-URI: http://b/\r\n"
     b"WARC-Refers-To: <urn:uuid:12345678-1234-1234-1234-123456789abc>\r\n"
     b"WARC-Profile: http://netpreserve.org/warc/1.0/revisit/identical-payload-digest\r\n"
     b"Content-Length: 0\r\n\r\n\r\n\r\n")
with open(out,"wb") as f:
    f.write(gzip.compress(orig))
    g=gzip.compress(rev)
    for i in range(r): f.write(g)
