import csv
from collections import Counter,defaultdict
tot=defaultdict(Counter); bytree=defaultdict(Counter); rnd=defaultdict(Counter); causes=Counter()
for t in ['urcu','ck','pb']:
    rows=[]
    for f in ('carried','verdicts'):
        rows+=list(csv.reader(open('%s-%s.tsv'%(t,f)),delimiter='\t'))[1:]
    for r in rows:
        tag,idx,fid,conf,kind,v=r[:6]
        tot[conf][v]+=1; tot['all'][v]+=1; bytree[t][v]+=1
        if tag=='RND': rnd[t][v]+=1; rnd['all'][v]+=1
        if tag=='TOP': rnd[t+'-top'][v]+=1
        if v!='TP': causes[r[7]]+=1
    print(t,len(rows))
def p(c): n=sum(c.values()); return '%d TP / %d WRONG / %d FP of %d = %.0f%%'%(c['TP'],c['WRONG'],c['FP'],n,100*c['TP']/max(1,n))
for k in ['high','medium','low','all']: print(k,p(tot[k]))
for k in ['urcu','ck','pb']: print(k,p(bytree[k]))
for k in sorted(rnd): print('sample',k,p(rnd[k]))
print(causes.most_common(12))
