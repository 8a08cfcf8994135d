# tally4.py: the fourth review's figures, from the carried verdicts and the
# reviewers' verdict files in this folder (one per tree).
# Precision per level counts the sample as drawn; for perfbook's high
# level, of which 25 of the 49 outside the first page were drawn, a
# weighted estimate is printed too.
import os,sys
sys.path.insert(0,os.path.join(os.path.dirname(os.path.abspath(__file__)),'..','review-2026-12-04'))
from mk import tally
tally({'urcu':['urcu-verdicts.tsv'],'ck':['ck-verdicts.tsv'],'pb':['pb-verdicts.tsv']},sys.argv)
