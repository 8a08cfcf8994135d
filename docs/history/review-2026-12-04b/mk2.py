# mk2.py KS TAG: samples of the new scans (seeds 20261206/20261207), each
# sampled finding either carried over from the 2026-12-04 review (same id,
# same locations) or written to a sheet for review.  The sampling and the
# sheet entries are those of ../review-2026-12-04/mk.py.
import csv,json,os,sys
sys.path.insert(0,os.path.join(os.path.dirname(os.path.abspath(__file__)),'..','review-2026-12-04'))
from mk import roots,report,draw,write_entry
from collections import Counter
KS=sys.argv[1]; TAG=sys.argv[2]
def locs(f): return sorted((l['role'],l['file'],l['line'],l['column']) for l in f['locations'])
for t,root in roots.items():
    F=report(KS,TAG,t,'/tmp/review2/%s.json'%t)
    old=json.load(open('/tmp/review/%s.json'%t))['findings']; oldby={f['id']:f for f in old}
    verd={r[2]:r for r in list(csv.reader(open('/tmp/review/%s-verdicts.tsv'%t),delimiter='\t'))[1:]}
    top,rnd,hi,med=draw(F,20261206,20261207)
    carried=open('/tmp/review2/%s-carried.tsv'%t,'w')
    carried.write('tag\tindex\tid\tconfidence\tkind\tverdict\tbenign\tcause\treason\n')
    n_new=n_car=0
    with open('/tmp/review2/%s-sheet.txt'%t,'w') as w:
        w.write('# %s: %d findings; TOP = report order 0..19; RND = seed 20261206, 30 of the rest; HIGH = every other high; MED = seed 20261207, 10 other medium\n'%(t,len(F)))
        for tag,idx in (('TOP',top),('RND',rnd),('HIGH',hi),('MED',med)):
            for i in idx:
                f=F[i]
                o=oldby.get(f['id'])
                if o and f['id'] in verd and locs(o)==locs(f):
                    r=verd[f['id']]
                    carried.write('\t'.join([tag,str(i),f['id'],f['confidence'],f['kind']]+r[5:9])+'\n'); n_car+=1
                    continue
                n_new+=1
                write_entry(w,tag,i,f,root)
    carried.close()
    print(t,len(F),dict(Counter(f['confidence'] for f in F)),'sample',len(top)+len(rnd)+len(hi)+len(med),'carried',n_car,'to review',n_new)
