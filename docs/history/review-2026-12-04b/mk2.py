# mk2.py KS TAG: samples of the new scans (seeds 20261206/20261207), each
# sampled finding either carried over from the 2026-12-04 review (same id,
# same locations) or written to a sheet for review.
import json,random,subprocess,sys,csv
KS=sys.argv[1]; TAG=sys.argv[2]
roots={'urcu':'/tmp/urcu/','ck':'/tmp/ck/','pb':'/tmp/perfbook/CodeSamples/'}
def locs(f): return sorted((l['role'],l['file'],l['line'],l['column']) for l in f['locations'])
for t,root in roots.items():
    out=subprocess.run([KS,'report','--db','/tmp/cf-%s-%s.db'%(TAG,t),'--format','json'],capture_output=True,text=True).stdout
    open('/tmp/review2/%s.json'%t,'w').write(out)
    F=json.loads(out)['findings']
    old=json.load(open('/tmp/review/%s.json'%t))['findings']; oldby={f['id']:f for f in old}
    verd={r[2]:r for r in list(csv.reader(open('/tmp/review/%s-verdicts.tsv'%t),delimiter='\t'))[1:]}
    top=list(range(min(20,len(F))))
    rest=list(range(20,len(F)))
    rnd=sorted(random.Random(20261206).sample(rest,min(30,len(rest))))
    have=set(top)|set(rnd)
    hi=[i for i in range(len(F)) if F[i]['confidence']=='high' and i not in have]
    med=[i for i in range(len(F)) if F[i]['confidence']=='medium' and i not in have]
    med=sorted(random.Random(20261207).sample(med,min(10,len(med))))
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
                w.write('\n=== %s #%d id=%s confidence=%s kind=%s\n'%(tag,i,f['id'],f['confidence'],f['kind']))
                w.write('message: %s\n'%f['message'])
                for l in f['locations']:
                    w.write('  %-14s %s:%s:%s in %s (%s%s)\n'%(l['role'],l['file'].replace(root,''),l['line'],l['column'],l['function'],'marked ' if l['marked'] else 'plain ',l['access']))
                for c in f['counterparts']:
                    w.write('  also %s flag=%s: %s\n'%(c['kind'],c['flag'],c['message']))
                    for l in c['locations']:
                        w.write('      %-14s %s:%s in %s\n'%(l['role'],l['file'].replace(root,''),l['line'],l['function']))
                w.write('  evidence: %s\n'%('; '.join(f['confidence_evidence'])))
    from collections import Counter
    print(t,len(F),dict(Counter(f['confidence'] for f in F)),'sample',len(top)+len(rnd)+len(hi)+len(med),'carried',n_car,'to review',n_new)
