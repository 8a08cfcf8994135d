# tally9.py: the ninth review's figures (run in this folder).  With
# "final", the addendum too: the one finding b4dfabd added (CK's first
# page), judged after the sample by a reviewer who had not worked on the
# rules.
import os,sys
sys.path.insert(0,os.path.join(os.path.dirname(os.path.abspath(__file__)),"..","review-2026-12-04"))
from mk import tally
final="final" in sys.argv
args=[a for a in sys.argv if a!="final"]
tally({"urcu":["urcu-verdicts.tsv"],"ck":["ck-verdicts.tsv"]+(["ck-addendum-verdicts.tsv"] if final else []),"pb":["pb-verdicts.tsv"]},args)
