# mk2.py KS TAG: samples of the new scans (seeds 20261206/20261207), each
# sampled finding either carried over from the 2026-12-04 review (same id,
# same locations) or written to a sheet for review.  The sampling and the
# sheet entries are those of ../review-2026-12-04/mk.py.
import csv,json,os,sys
sys.path.insert(0,os.path.join(os.path.dirname(os.path.abspath(__file__)),'..','review-2026-12-04'))
from mk import roots,report,draw,write_samples
from collections import Counter
KS=sys.argv[1]; TAG=sys.argv[2]
for t,root in roots.items():
    F=report(KS,TAG,t,'/tmp/review2/%s.json'%t)
    old=json.load(open('/tmp/review/%s.json'%t))['findings']; oldby={f['id']:f for f in old}
    verd={r[2]:r for r in list(csv.reader(open('/tmp/review/%s-verdicts.tsv'%t),delimiter='\t'))[1:]}
    earlier={i:(oldby[i],r) for i,r in verd.items() if i in oldby}
    top,rnd,hi,med=draw(F,20261206,20261207)
    header='# %s: %d findings; TOP = report order 0..19; RND = seed 20261206, 30 of the rest; HIGH = every other high; MED = seed 20261207, 10 other medium\n'%(t,len(F))
    n_car,n_new=write_samples(t,root,F,(('TOP',top),('RND',rnd),('HIGH',hi),('MED',med)),earlier,'/tmp/review2',header)
    print(t,len(F),dict(Counter(f['confidence'] for f in F)),'sample',len(top)+len(rnd)+len(hi)+len(med),'carried',n_car,'to review',n_new)
