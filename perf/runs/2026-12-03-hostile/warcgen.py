import sys, gzip
def record(uri, body, rtype=b"response", http=True, ctype=b"text/xml", extra=b""):
    if http:
        payload = b"HTTP/1.1 200 OK\r\nContent-Type: " + ctype + b"\r\nContent-Length: " + str(len(body)).encode() + b"\r\n\r\n" + body
        wct = b"application/http; msgtype=response"
    else:
        payload = body; wct = ctype
    h = (b"WARC/1.0\r\nWARC-Type: " + rtype + b"\r\nWARC-Record-ID: <urn:uuid:12345678-1234-1234-1234-123456789abc>\r\n"
         b"WARC-Date: 2024-01-01T00:00:00Z\r\nWARC-Target-URI: " + uri + b"\r\n" + extra +
         b"Content-Type: " + wct + b"\r\nContent-Length: " + str(len(payload)).encode() + b"\r\n\r\n")
    return h + payload + b"\r\n\r\n"
