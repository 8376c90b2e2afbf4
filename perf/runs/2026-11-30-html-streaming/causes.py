import sys, collections, re
rows=[l.rstrip('\n').split('\t') for l in open(sys.argv[1]) if l.startswith('HS\t')]
tot=collections.Counter(); 
classes=collections.Counter(); classn=collections.Counter(); classb=collections.Counter(); classin=collections.Counter()
first=collections.Counter(); allc=collections.Counter(); fragc=collections.Counter()
for r in rows:
    _,st,inb,nodes,nel,ser=r[:6]; causes=[re.sub(r'@\d+$','',c) for c in (r[6] if len(r)>6 else '').split(',') if c]
    inb,nodes,ser=int(inb),int(nodes),int(ser)
    tot['values']+=1; tot['in']+=inb; tot['nodes']+=nodes; tot['ser']+=ser
    if st=='bail': cls='bail (html5ever)'
    else:
        real=[c for c in causes if not c.startswith('start-selfclosing-nonvoid')]
        noeof=[c for c in real if not c.startswith('eof-open')]
        if not real: cls='identity'
        elif not noeof: cls='identity + open at EOF'
        else: cls='non-identity'
        if st=='unclean': cls+=' (unclean 1x1 img)'
        if noeof:
            def key(c):
                c=re.sub(r'\+\d+$','+N',c); c=re.sub(r'pops\d+','popsN',c); return c
            first[key(noeof[0])]+=1
            for k in set(map(key,noeof)): fragc[k]+=1
            for c in noeof: allc[key(c)]+=1
        for c in causes:
            if c.startswith('start-selfclosing'): allc['(info) '+c.split(':')[0]]+=1
    classes[cls]+=1; classn[cls]+=nodes; classb[cls]+=ser; classin[cls]+=inb
print('total', dict(tot))
print('| class | values | % | nodes | % | serialized bytes | % | input bytes |')
for k,v in classes.most_common():
    print(f'| {k} | {v} | {100*v/tot["values"]:.1f} | {classn[k]} | {100*classn[k]/tot["nodes"]:.1f} | {classb[k]} | {100*classb[k]/tot["ser"]:.1f} | {classin[k]} |')
print('\nfirst non-identity token per fragment (top 30):')
for k,v in first.most_common(30): print(f'| {k} | {v} | {fragc[k]} | {allc[k]} |')
print('\nall occurrences top 40:')
for k,v in allc.most_common(40): print(v,k)
