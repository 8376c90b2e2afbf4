import sys, statistics as st, collections
d=collections.defaultdict(list)
for f in sys.argv[1:]:
    for line in open(f):
        p=line.split()
        if len(p)<8: continue
        d[(p[0],p[1])].append(tuple(float(x) for x in p[3:8]))
for k,v in sorted(d.items()):
    cpu=[a[0]+a[1] for a in v]; u=[a[0] for a in v]; s=[a[1] for a in v]
    print(f"{k[0]:14s} {k[1]} n={len(v):2d} cpu med {st.median(cpu):.3f} [{min(cpu):.2f}-{max(cpu):.2f}] user {st.median(u):.3f} sys {st.median(s):.3f} maxrss med {st.median([a[3] for a in v])/1024:.0f}MiB max {max(a[3] for a in v)/1024:.0f} faults {st.median([a[4] for a in v]):.0f}")
