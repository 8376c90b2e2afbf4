# WARC response whose HTTP body is gzip nested k times (stored blocks, ~23 bytes per layer),
# with `Content-Encoding header = gzip x k, ... (k)`: each layer is decoded into a fresh buffer, O(k^2) bytes.
import sys, zlib; sys.path.insert(0,__import__('os').path.dirname(__import__('os').path.abspath(__file__))); from warcgen import record
k=int(sys.argv[1]); out=sys.argv[2]
body=b'<rss version="2.0"><channel><title>t</title></channel></rss>'
for i in range(k):
    c=zlib.compressobj(0, zlib.DEFLATED, 31); body=c.compress(body)+c.flush()
uri=b"http://a/"
hdr=b"HTTP/1.1 200 OK\r\nContent-Type: text/xml\r\nContent-Encoding: "+b", ".join([b"gzip"]*k)+b"\r\nContent-Length: %d\r\n\r\n"%len(body)
payload=hdr+body
open(out,"wb").write(b"WARC/1.0\r\nWARC-Type: response\r\nWARC-Record-ID: <urn:uuid:1>\r\nWARC-Date: 2024-01-01T00:00:00Z\r\nWARC-Target-URI: "+uri+b"\r\nContent-Type: application/http; msgtype=response\r\nContent-Length: %d\r\n\r\n"%len(payload)+payload+b"\r\n\r\n")
