# mk.py KS TAG: the samples of the first review of 2026-12-04, drawn from
# the scans /tmp/cf-TAG-{urcu,ck,pb}.db into /tmp/review/ (a sheet per
# tree).  draw() and write_entry() also serve ../review-2026-12-04b/mk2.py.
import json,random,subprocess,sys
roots={'urcu':'/tmp/urcu/','ck':'/tmp/ck/','pb':'/tmp/perfbook/CodeSamples/'}

def report(KS,TAG,t,path):
    """The report of tree T's scan as JSON, kept at PATH; its findings."""
    out=subprocess.run([KS,'report','--db','/tmp/cf-%s-%s.db'%(TAG,t),'--format','json'],capture_output=True,text=True).stdout
    open(path,'w').write(out)
    return json.loads(out)['findings']

def draw(F,seed_rnd,seed_med):
    """The first page (20), 30 at random from the rest, every other high
    finding and 10 other medium ones, as indexes into F."""
    top=list(range(min(20,len(F))))
    rest=list(range(20,len(F)))
    rnd=sorted(random.Random(seed_rnd).sample(rest,min(30,len(rest))))
    have=set(top)|set(rnd)
    hi=[i for i in range(len(F)) if F[i]['confidence']=='high' and i not in have]
    med=[i for i in range(len(F)) if F[i]['confidence']=='medium' and i not in have]
    med=sorted(random.Random(seed_med).sample(med,min(10,len(med))))
    return top,rnd,hi,med

def write_entry(w,tag,i,f,root):
    """Finding F (report order I, sample TAG) as a sheet entry."""
    w.write('\n=== %s #%d id=%s confidence=%s kind=%s\n'%(tag,i,f['id'],f['confidence'],f['kind']))
    w.write('message: %s\n'%f['message'])
    for l in f['locations']:
        w.write('  %-14s %s:%s:%s in %s (%s%s)\n'%(l['role'],l['file'].replace(root,''),l['line'],l['column'],l['function'],'marked ' if l['marked'] else 'plain ',l['access']))
    for c in f['counterparts']:
        w.write('  also %s flag=%s: %s\n'%(c['kind'],c['flag'],c['message']))
        for l in c['locations']:
            w.write('      %-14s %s:%s in %s\n'%(l['role'],l['file'].replace(root,''),l['line'],l['function']))
    w.write('  evidence: %s\n'%('; '.join(f['confidence_evidence'])))

def locs(f):
    """What makes two findings identical besides their id: their locations."""
    return sorted((l['role'],l['file'],l['line'],l['column']) for l in f['locations'])

def write_samples(t,root,F,groups,earlier,outdir,header):
    """Tree T's sampled findings (GROUPS: (tag, indexes into F)) into
    OUTDIR: each one identical to an earlier review's finding (EARLIER: id ->
    (finding, verdict row)) into T-carried.tsv with that verdict, the rest
    into T-sheet.txt under HEADER.  Returns (carried, to review)."""
    n_new=n_car=0
    with open('%s/%s-carried.tsv'%(outdir,t),'w') as carried, open('%s/%s-sheet.txt'%(outdir,t),'w') as w:
        carried.write('tag\tindex\tid\tconfidence\tkind\tverdict\tbenign\tcause\treason\n')
        w.write(header)
        for tag,idx in groups:
            for i in idx:
                f=F[i]
                v=earlier.get(f['id'])
                if v and locs(v[0])==locs(f):
                    carried.write('\t'.join([tag,str(i),f['id'],f['confidence'],f['kind']]+v[1][5:9])+'\n'); n_car+=1
                    continue
                n_new+=1
                write_entry(w,tag,i,f,root)
    return n_car,n_new

if __name__=='__main__':
    from collections import Counter
    KS=sys.argv[1]; TAG=sys.argv[2]
    for t,root in roots.items():
        F=report(KS,TAG,t,'/tmp/review/%s.json'%t)
        top,rnd,hi,med=draw(F,20261204,20261205)
        with open('/tmp/review/%s-sheet.txt'%t,'w') as w:
            w.write('# %s: %d findings; first page = report order 0..19; RND = seed 20261204, 30 of the rest; HIGH = every other high; MED = seed 20261205, 10 other medium\n'%(t,len(F)))
            for tag,idx in (('TOP',top),('RND',rnd),('HIGH',hi),('MED',med)):
                for i in idx:
                    write_entry(w,tag,i,F[i],root)
        print(t,len(F),Counter(f['confidence'] for f in F),'top:',Counter(F[i]['confidence'] for i in top),'rnd:',Counter(F[i]['confidence'] for i in rnd),'extra high',len(hi),'extra med',len(med))
