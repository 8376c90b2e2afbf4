import sys, collections, re
rows=[l.rstrip('\n').split('\t') for l in open(sys.argv[1]) if l.startswith('HS\t')]
VOID={'area','base','br','col','embed','hr','img','input','link','meta','param','source','track','wbr','keygen','basefont','bgsound','frame','image'}
def tier(st,causes):
    if st=='bail': return 'T4 bail (html5ever)'
    cs=[c for c in causes if not c.startswith('start-selfclosing')]
    if any(c.startswith('adopt-move') for c in cs): return 'T4 adoption agency moves nodes'
    if not cs and st=='ok': return 'T0 identity, clean'
    def t1(c):
        if c.startswith('eof-open'): return True
        m=re.match(r'end-ignored:</([^>]*)>',c)
        return bool(m and m.group(1) in VOID and m.group(1)!='br')
    if all(t1(c) for c in cs): return 'T1 identity + per-token rules (EOF closes, </void> dropped, 1x1 img dropped)'
    if all(not c.startswith('svg') for c in cs) and all(not c.startswith('text:reconstruct') and not re.match(r'start-(extra|pops-and)',c) and not re.match(r'end-inserts:</(?!p>)',c) for c in cs):
        return 'T2 + stack-only rules (implied ends that pop, ignored end tags, </p> -> <p></p>)'
    return 'T3 + inserts (reconstruction, implied tbody/tr, svg)'
tot=collections.Counter(); C=collections.defaultdict(collections.Counter)
for r in rows:
    _,st,inb,nodes,nel,ser=r[:6]; causes=[re.sub(r'@\d+$','',c) for c in (r[6] if len(r)>6 else '').split(',') if c]
    t=tier(st,causes)
    for k,v in (('values',1),('nodes',int(nodes)),('ser',int(ser)),('in',int(inb))):
        C[t][k]+=v; tot[k]+=v
print(dict(tot))
cum=collections.Counter()
print('| tier | values | % | cum % | nodes % | cum % | serialized bytes % | cum % |')
for t in sorted(C):
    for k in C[t]: cum[k]+=C[t][k]
    p=lambda d,k: 100*d[k]/tot[k]
    print(f"| {t} | {C[t]['values']} | {p(C[t],'values'):.1f} | {p(cum,'values'):.1f} | {p(C[t],'nodes'):.1f} | {p(cum,'nodes'):.1f} | {p(C[t],'ser'):.1f} | {p(cum,'ser'):.1f} |")
