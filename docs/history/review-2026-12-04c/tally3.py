# tally3.py: the third review's figures, from the carried verdicts and the
# reviewers' verdict files in this folder (perfbook's sheet was judged in
# two halves, pb-a: first page and high, pb-b: random and medium).
# Precision per level counts the sample as drawn; for perfbook's high
# level, of which 25 of the 49 outside the first page were drawn, a
# weighted estimate is printed too.
import os,sys
sys.path.insert(0,os.path.join(os.path.dirname(os.path.abspath(__file__)),'..','review-2026-12-04'))
from mk import tally
tally({'urcu':['urcu-verdicts.tsv'],'ck':['ck-verdicts.tsv'],'pb':['pb-a-verdicts.tsv','pb-b-verdicts.tsv']},sys.argv)
