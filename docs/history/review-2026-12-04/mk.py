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

def judged_by(t,here,reviews):
    """Earlier verdicts on tree T by id, each with the finding it was given
    for: REVIEWS lists (folder beside HERE, the JSON report its sample was
    drawn from, the names of its verdict files); a later review's verdict
    replaces an earlier one."""
    import csv,os
    out={}
    for rev,js,names in reviews:
        if not os.path.exists(js%t): continue
        old={f['id']:f for f in json.load(open(js%t))['findings']}
        for name in names:
            p=os.path.join(here,'..',rev,name%t)
            if not os.path.exists(p): continue
            for r in list(csv.reader(open(p),delimiter='\t'))[1:]:
                if r[2] in old: out[r[2]]=(old[r[2]],r)
    return out

def tally(files,argv):
    """A review's figures from the verdict files in the current folder:
    FILES per tree, besides TREE-carried.tsv.  ARGV (NHIGH_OUTSIDE_TOP
    NDRAWN) adds a weighted estimate of perfbook's high level, when only
    some of its high findings outside the first page were drawn."""
    import csv
    from collections import Counter,defaultdict
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
    if len(argv)>2:
        n_out,n_drawn=int(argv[1]),int(argv[2])
        top=smp['pb-TOP']; hi=smp['pb-HIGH']
        tp=top['TP']+hi['TP']*n_out/n_drawn; n=sum(top.values())+n_out
        print('pb high, weighted: %.1f TP of %d = %.0f%%'%(tp,n,100*tp/n))
    print(causes.most_common(12))

def sample_review(KS,TAG,outdir,seeds,earlier_of):
    """A review's samples (the third review's scheme and after): each tree's
    first page, 30 at random from the rest, 10 other medium findings and,
    of the other high ones, every one when there are at most 25, else 25
    at random; SEEDS (random, medium, high).  Reports go to OUTDIR/TREE.json,
    sheets and carried verdicts beside them (EARLIER_OF(tree): id ->
    (finding, verdict row))."""
    from collections import Counter
    s_rnd,s_med,s_hi=seeds
    for t,root in roots.items():
        F=report(KS,TAG,t,'%s/%s.json'%(outdir,t))
        top,rnd,hi,med=draw(F,s_rnd,s_med)
        if len(hi)>25: hi=sorted(random.Random(s_hi).sample(hi,25))
        header='# %s: %d findings; TOP = report order 0..19; RND = seed %d, 30 of the rest; HIGH = other high (all, or 25 at random, seed %d); MED = seed %d, 10 other medium\n'%(t,len(F),s_rnd,s_hi,s_med)
        n_car,n_new=write_samples(t,root,F,(('TOP',top),('RND',rnd),('HIGH',hi),('MED',med)),earlier_of(t),outdir,header)
        print(t,len(F),dict(Counter(f['confidence'] for f in F)),'sample',len(top)+len(rnd)+len(hi)+len(med),'carried',n_car,'to review',n_new)

import csv,glob,os,re
ENTRY=re.compile(r'^=== \S+ #\d+ id=([0-9a-f]+) ')
LOC=re.compile(r'^  (plain-access|publish|consume|racing-access|barrier|[a-z-]+)\s+(\S+):(\d+):(\d+) in ')

def earlier_reviews(here):
    """The review folders beside HERE made before it (their names sort in
    the order they were made), oldest first."""
    hist=os.path.join(here,'..'); mine=os.path.basename(os.path.abspath(here))
    return [d for d in sorted(glob.glob(os.path.join(hist,'review-2026-*'))) if os.path.basename(d)<mine]

def sheet_locations(t,here):
    """id -> the locations an earlier sheet of tree T gave it (the review
    folders made before HERE)."""
    out={}
    for p in sorted(p for d in earlier_reviews(here) for p in glob.glob(os.path.join(d,'%s*-sheet.txt'%t))):
        cur=None
        for line in open(p):
            m=ENTRY.match(line)
            if m: cur=m.group(1); out[cur]=[]; continue
            m=LOC.match(line)
            if cur and m:
                role,f,l,c=m.groups()
                out[cur].append({'role':role,'file':os.path.normpath(os.path.join(roots[t],f)),'line':int(l),'column':int(c)})
    return out

def judged_before(t,here):
    """id -> (a finding with the earlier locations, the verdict row), from
    every review folder made before HERE (the fifth review's scheme and
    after: verdicts carried for identical findings)."""
    locs=sheet_locations(t,here); out={}
    for d in earlier_reviews(here):
        for p in sorted(glob.glob(os.path.join(d,'%s*-verdicts.tsv'%t))+glob.glob(os.path.join(d,'%s-carried.tsv'%t))):
            for r in list(csv.reader(open(p),delimiter='\t'))[1:]:
                if len(r)>5 and r[2] in locs and r[5] in ('TP','FP','WRONG'):
                    out[r[2]]=({'locations':locs[r[2]]},r)
    return out

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
