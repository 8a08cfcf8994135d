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
import os,sys
sys.path.insert(0,os.path.join(os.path.dirname(os.path.abspath(__file__)),'..','review-2026-12-04'))
from mk import judged_before,sample_review
HERE=os.path.dirname(os.path.abspath(__file__))

if __name__=='__main__':
    sample_review(sys.argv[1],sys.argv[2],'/tmp/review7',(20261241,20261242,20261243),lambda t: judged_before(t,HERE))
