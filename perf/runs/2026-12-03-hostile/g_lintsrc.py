# long WARC target URI (n bytes) + feed with `items` items each lacking guid -> many findings
import sys; sys.path.insert(0,__import__('os').path.dirname(__import__('os').path.abspath(__file__))); from warcgen import record
n=int(sys.argv[1]); items=int(sys.argv[2]); out=sys.argv[3]
uri=b"http://a.example/"+b"a"*n
body=b'<?xml version="1.0"?><rss version="2.0"><channel><title>t</title><link>http://a/</link><description>d</description>'+b"<item><title>x</title></item>\n"*items+b"</channel></rss>"
open(out,"wb").write(record(uri,body))
