import sys, statistics as st
d={}
for l in open(sys.argv[1]):
    b,f,u,s,e,m,fl=l.split(); d.setdefault((b,f),[]).append((float(u)+float(s),float(s),int(m)/1024,int(fl)))
for k,v in d.items():
    c=[x[0] for x in v]
    print(k[0],k[1],'n=%d cpu med %.3f (%.2f-%.2f) sys %.3f peak med %.0f max %.0f faults %.1fK'%(len(v),st.median(c),min(c),max(c),st.median([x[1] for x in v]),st.median([x[2] for x in v]),max(x[2] for x in v),st.median([x[3] for x in v])/1000))
