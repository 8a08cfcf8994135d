# tally9.py: the ninth review's figures (run in this folder).
import os,sys
sys.path.insert(0,os.path.join(os.path.dirname(os.path.abspath(__file__)),"..","review-2026-12-04"))
from mk import tally
tally({"urcu":["urcu-verdicts.tsv"],"ck":["ck-verdicts.tsv"],"pb":["pb-verdicts.tsv"]},sys.argv)
