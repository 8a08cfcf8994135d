# mk7.py KS TAG: the samples of the seventh review (issue 11, seventh
# increment), drawn after the scans /tmp/cf-TAG-{urcu,ck,pb}.db into
# /tmp/review7/: each tree's first page (20), 30 at random from the rest
# (seed 20261241), 10 other medium findings (seed 20261242) and, of the
# other high ones, every one when there are at most 25, else 25 at random
# (seed 20261243).  A sampled finding identical to one an earlier review
# judged keeps that verdict (TREE-carried.tsv); the rest go to
# TREE-sheet.txt.  Identical: the same id and the same locations, the
# earlier locations read back from the earlier reviews' sheets (their JSON
# reports are not kept), paths compared normalized ("a/../api.h" is
# "api.h": the scan names files so since this increment).
import csv,glob,os,re,sys
sys.path.insert(0,os.path.join(os.path.dirname(os.path.abspath(__file__)),'..','review-2026-12-04'))
from mk import roots,sample_review
HERE=os.path.dirname(os.path.abspath(__file__))
HIST=os.path.join(HERE,'..')
ENTRY=re.compile(r'^=== \S+ #\d+ id=([0-9a-f]+) ')
LOC=re.compile(r'^  (plain-access|publish|consume|racing-access|barrier|[a-z-]+)\s+(\S+):(\d+):(\d+) in ')

def sheet_locations(t):
    """id -> the locations an earlier sheet of tree T gave it."""
    out={}
    for p in sorted(glob.glob(os.path.join(HIST,'review-2026-12-04*','%s*-sheet.txt'%t))):
        cur=None
        for line in open(p):
            m=ENTRY.match(line)
            if m: cur=m.group(1); out[cur]=[]; continue
            m=LOC.match(line)
            if cur and m:
                role,f,l,c=m.groups()
                out[cur].append({'role':role,'file':os.path.normpath(os.path.join(roots[t],f)),'line':int(l),'column':int(c)})
    return out

def judged(t):
    """id -> (a finding with the earlier locations, the verdict row)."""
    locs=sheet_locations(t); out={}
    for d in sorted(glob.glob(os.path.join(HIST,'review-2026-12-04*'))):
        if os.path.abspath(d)==HERE: continue
        for p in sorted(glob.glob(os.path.join(d,'%s*-verdicts.tsv'%t))+glob.glob(os.path.join(d,'%s-carried.tsv'%t))):
            for r in list(csv.reader(open(p),delimiter='\t'))[1:]:
                if len(r)>5 and r[2] in locs and r[5] in ('TP','FP','WRONG'):
                    out[r[2]]=({'locations':locs[r[2]]},r)
    return out

if __name__=='__main__':
    sample_review(sys.argv[1],sys.argv[2],'/tmp/review7',(20261241,20261242,20261243),judged)
