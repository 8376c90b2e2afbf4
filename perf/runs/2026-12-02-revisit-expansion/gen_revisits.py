# One 1 MB feed response and 2,000 revisits of it, one gzip member per record.
import gzip, sys
uri = "http://a.example/rss"
items = "".join(f"<item><title>t{i}</title><description>{'d'*1000}</description></item>" for i in range(1000))
feed = f'<rss version="2.0"><channel><title>x</title>{items}</channel></rss>'.encode()
def warc(ty, fields, block):
    h = f"WARC/1.1\r\nWARC-Type: {ty}\r\n" + "".join(f"{k}: {v}\r\n" for k, v in fields) + f"Content-Length: {len(block)}\r\n\r\n"
    return h.encode() + block + b"\r\n\r\n"
http = lambda body: b"HTTP/1.1 200 OK\r\nContent-Type: application/rss+xml\r\n\r\n" + body
out = open(sys.argv[1], "wb")
out.write(gzip.compress(warc("response", [("WARC-Record-ID", "<urn:x:1>"), ("WARC-Target-URI", uri)], http(feed))))
rev = gzip.compress(warc("revisit", [("WARC-Record-ID", "<urn:x:r>"), ("WARC-Target-URI", uri), ("WARC-Refers-To", "<urn:x:1>")], http(b"")))
for _ in range(2000):
    out.write(rev)
