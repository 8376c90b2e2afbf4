# JSON Feed stressors
import sys, json
mode=sys.argv[1]; n=int(sys.argv[2]); out=sys.argv[3]
f={"version":"https://jsonfeed.org/version/1.1","title":"t","home_page_url":"http://a/"}
if mode=="items": f["items"]=[{"id":str(i),"url":"/p%d"%i,"content_html":"<p>x</p>","tags":["a","b"],"date_published":"bad"} for i in range(n)]
elif mode=="authors": f["items"]=[{"id":"1","content_text":"x","authors":[{"name":"n%d"%i} for i in range(n)]}]
elif mode=="tags": f["items"]=[{"id":"1","content_text":"x","tags":["t%d"%i for i in range(n)]}]
elif mode=="dupkeys": s='{"version":"https://jsonfeed.org/version/1.1","title":"t",'+('"title":"x",'*n)+'"items":[]}'; open(out,"w").write(s); raise SystemExit
elif mode=="extkeys": f["_ext"]={("k%d"%i):{"a":{"b":i}} for i in range(n)}
elif mode=="deep": 
    s='{"version":"https://jsonfeed.org/version/1.1","title":"t","_x":'+'{"a":'*n+'1'+'}'*n+',"items":[]}'; open(out,"w").write(s); raise SystemExit
elif mode=="undef": f.update({("u%d"%i):i for i in range(n)})
open(out,"w").write(json.dumps(f))
