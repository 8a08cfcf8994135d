# mk4.py KS TAG: the samples of the fourth review (issue 11, fifth
# increment), drawn after the scans /tmp/cf-TAG-{urcu,ck,pb}.db into
# /tmp/review4/: each tree's first page (20), 30 at random from the rest
# (seed 20261211), 10 other medium findings (seed 20261212) and, of the
# other high ones, every one when there are at most 25, else 25 at random
# (seed 20261213).  A sampled finding identical to one an earlier review
# judged (same id, same locations) keeps that verdict (TREE-carried.tsv);
# the rest go to TREE-sheet.txt.  draw() and write_samples() are the first
# review's (../review-2026-12-04/mk.py).
import os,sys
sys.path.insert(0,os.path.join(os.path.dirname(os.path.abspath(__file__)),'..','review-2026-12-04'))
from mk import judged_by,sample_review
KS=sys.argv[1]; TAG=sys.argv[2]
HERE=os.path.dirname(os.path.abspath(__file__))
REVIEWS=(('review-2026-12-04','/tmp/review/%s.json',('%s-verdicts.tsv','%s-carried.tsv')),
         ('review-2026-12-04b','/tmp/review2/%s.json',('%s-verdicts.tsv','%s-carried.tsv')),
         ('review-2026-12-04c','/tmp/review3/%s.json',('%s-verdicts.tsv','%s-a-verdicts.tsv','%s-b-verdicts.tsv','%s-carried.tsv')))
def judged(t): return judged_by(t,HERE,REVIEWS)
sample_review(KS,TAG,'/tmp/review4',(20261211,20261212,20261213),judged)
