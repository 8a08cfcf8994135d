# mk9.py KS TAG: the samples of the ninth review (issue 11, ninth
# increment: a reader learns from a flag only what its access runs on),
# drawn after the scans /tmp/cf-TAG-{urcu,ck,pb}.db into /tmp/review9/:
# each tree's first page (20), 30 at random from the rest (seed 20261261),
# 10 other medium findings (seed 20261262) and, of the other high ones,
# every one when there are at most 25, else 25 at random (seed 20261263).
# A sampled finding identical to one an earlier review judged (the same id
# and the same locations) keeps that verdict (TREE-carried.tsv); the rest
# go to TREE-sheet.txt (see ../review-2026-12-04g/mk7.py).
import os,sys
sys.path.insert(0,os.path.join(os.path.dirname(os.path.abspath(__file__)),'..','review-2026-12-04'))
from mk import judged_before,sample_review
HERE=os.path.dirname(os.path.abspath(__file__))

if __name__=='__main__':
    sample_review(sys.argv[1],sys.argv[2],'/tmp/review9',(20261261,20261262,20261263),lambda t: judged_before(t,HERE))
