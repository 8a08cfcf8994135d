# mk4.py KS TAG: the samples of the fourth review (issue 11, fifth
# increment), drawn after the scans /tmp/cf-TAG-{urcu,ck,pb}.db into
# /tmp/review4/: each tree's first page (20), 30 at random from the rest
# (seed 20261211), 10 other medium findings (seed 20261212) and, of the
# other high ones, every one when there are at most 25, else 25 at random
# (seed 20261213).  A sampled finding identical to one an earlier review
# judged (same id, same locations) keeps that verdict (TREE-carried.tsv);
# the rest go to TREE-sheet.txt.  draw() and write_samples() are the first
# review's (../review-2026-12-04/mk.py).
import csv,json,os,random,sys
sys.path.insert(0,os.path.join(os.path.dirname(os.path.abspath(__file__)),'..','review-2026-12-04'))
from mk import roots,report,draw,write_samples
from collections import Counter
KS=sys.argv[1]; TAG=sys.argv[2]
HERE=os.path.dirname(os.path.abspath(__file__))
REVIEWS=(('review-2026-12-04','/tmp/review/%s.json',('%s-verdicts.tsv','%s-carried.tsv')),
         ('review-2026-12-04b','/tmp/review2/%s.json',('%s-verdicts.tsv','%s-carried.tsv')),
         ('review-2026-12-04c','/tmp/review3/%s.json',('%s-verdicts.tsv','%s-a-verdicts.tsv','%s-b-verdicts.tsv','%s-carried.tsv')))
def judged(t):
    """Earlier verdicts by id, each with the finding it was given for (a
    later review's verdict replaces an earlier one)."""
    out={}
    for rev,js,names in REVIEWS:
        if not os.path.exists(js%t): continue
        old={f['id']:f for f in json.load(open(js%t))['findings']}
        for name in names:
            p=os.path.join(HERE,'..',rev,name%t)
            if not os.path.exists(p): continue
            for r in list(csv.reader(open(p),delimiter='\t'))[1:]:
                if r[2] in old: out[r[2]]=(old[r[2]],r)
    return out
for t,root in roots.items():
    F=report(KS,TAG,t,'/tmp/review4/%s.json'%t)
    top,rnd,hi,med=draw(F,20261211,20261212)
    if len(hi)>25: hi=sorted(random.Random(20261213).sample(hi,25))
    header='# %s: %d findings; TOP = report order 0..19; RND = seed 20261211, 30 of the rest; HIGH = other high (all, or 25 at random, seed 20261213); MED = seed 20261212, 10 other medium\n'%(t,len(F))
    n_car,n_new=write_samples(t,root,F,(('TOP',top),('RND',rnd),('HIGH',hi),('MED',med)),judged(t),'/tmp/review4',header)
    print(t,len(F),dict(Counter(f['confidence'] for f in F)),'sample',len(top)+len(rnd)+len(hi)+len(med),'carried',n_car,'to review',n_new)
