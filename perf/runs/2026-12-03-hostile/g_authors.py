# Atom feed, one entry with k distinct authors (extraction dedups them with Vec::contains)
import sys
k=int(sys.argv[1]); out=sys.argv[2]
a=b"".join(b"<author><name>n%d</name></author>" % i for i in range(k))
open(out,"wb").write(b'<feed xmlns="http://www.w3.org/2005/Atom"><title>t</title><id>x</id><updated>2020-01-01T00:00:00Z</updated><entry><title>e</title><id>e</id><updated>2020-01-01T00:00:00Z</updated>'+a+b'</entry></feed>')
