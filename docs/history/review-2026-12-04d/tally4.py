# tally4.py: the fourth review's figures, from the carried verdicts and the
# reviewers' verdict files in this folder (one per tree).
# Precision per level counts the sample as drawn; for perfbook's high
# level, of which 25 of the 49 outside the first page were drawn, a
# weighted estimate is printed too.
import csv,sys
from collections import Counter,defaultdict
files={'urcu':['urcu-verdicts.tsv'],'ck':['ck-verdicts.tsv'],'pb':['pb-verdicts.tsv']}
tot=defaultdict(Counter); bytree=defaultdict(Counter); smp=defaultdict(Counter); causes=Counter()
for t,fs in files.items():
    rows=list(csv.reader(open('%s-carried.tsv'%t),delimiter='\t'))[1:]
    for f in fs: rows+=list(csv.reader(open(f),delimiter='\t'))[1:]
    for r in rows:
        tag,idx,fid,conf,kind,v=r[:6]
        tot[conf][v]+=1; tot['all'][v]+=1; bytree[t][v]+=1
        smp[t+'-'+tag][v]+=1
        if tag=='RND': smp['all-RND'][v]+=1
        if v!='TP': causes[r[7]]+=1
    print(t,len(rows),'judged')
def p(c): n=sum(c.values()); return '%d TP / %d WRONG / %d FP of %d = %.0f%%'%(c['TP'],c['WRONG'],c['FP'],n,100*c['TP']/max(1,n))
for k in ['high','medium','low','all']: print(k,p(tot[k]))
for k in ['urcu','ck','pb']: print(k,p(bytree[k]))
for k in sorted(smp): print('sample',k,p(smp[k]))
if len(sys.argv)>2:       # NHIGH_OUTSIDE_TOP NDRAWN: weighted high estimate for pb
    n_out,n_drawn=int(sys.argv[1]),int(sys.argv[2])
    top=smp['pb-TOP']; hi=smp['pb-HIGH']
    tp=top['TP']+hi['TP']*n_out/n_drawn; n=sum(top.values())+n_out
    print('pb high, weighted: %.1f TP of %d = %.0f%%'%(tp,n,100*tp/n))
print(causes.most_common(12))
