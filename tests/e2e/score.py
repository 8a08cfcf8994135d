#!/usr/bin/env python3
"""tests/e2e/score.py — run kcsan-scan over labelled programs and score it.

Each program is scanned on its own (a fresh database) and its JSON report is
compared with the labels written in the program itself:

  examples mode  `// EXPECT: KIND` on a line: a finding of KIND must start
                 (first location) on that line; any other finding is wrong.
                 A file without markers (a fixed twin) must have no finding.
  corpus mode    the header says `lkmm: race` or `lkmm: no-race`; lines of
                 racy plain accesses carry `// RACE(writer)` / `// RACE(reader)`.
                 A racy program is found when some finding has a location on
                 a labelled line; any finding on a no-race program is a false
                 positive.

Prints one line per program, the figures, and a closing `N passed, M failed`.
Exit status 1 if anything failed (examples: any mismatch; corpus: a false
positive, or recall below --min-recall; a missed race within that budget is
listed as "miss" and counted only in the recall figure).
"""
import argparse
import json
import os
import re
import subprocess
import sys
import tempfile

EXPECT = re.compile(r"//\s*EXPECT:\s*([a-z-]+)")
RACE = re.compile(r"//\s*RACE\((writer|reader)\)")
TRUTH = re.compile(r"^\s*\*\s*lkmm:\s*(race|no-race)\b", re.M)


def scan(binary, path, workdir):
    db = os.path.join(workdir, "k.db")
    for suffix in ("", "-wal", "-shm"):
        if os.path.exists(db + suffix):
            os.unlink(db + suffix)
    r = subprocess.run([binary, "scan", "-q", "--db", db, path], capture_output=True, text=True)
    if r.returncode not in (0, 1):
        raise RuntimeError("scan failed (%d): %s" % (r.returncode, r.stderr.strip()))
    if "does not parse" in r.stderr:
        # a program that does not parse gives no finding: that must not
        # pass for a clean result
        raise RuntimeError("does not parse: %s" % r.stderr.strip())
    rep = subprocess.run([binary, "report", "--db", db, "--format", "json"], capture_output=True, text=True)
    if rep.returncode != 0:
        raise RuntimeError("report failed (%d): %s" % (rep.returncode, rep.stderr.strip()))
    return json.loads(rep.stdout)["findings"]


def same_file(loc_file, path):
    return os.path.normpath(os.path.abspath(loc_file)) == os.path.normpath(os.path.abspath(path))


def check_example(binary, path, workdir):
    want = set()
    with open(path) as f:
        for n, line in enumerate(f, 1):
            for kind in EXPECT.findall(line):
                want.add((n, kind))
    got = set()
    for fd in scan(binary, path, workdir):
        loc = fd["locations"][0]
        got.add((loc["line"] if same_file(loc["file"], path) else -1, fd["kind"]))
    missing, extra = want - got, got - want
    ok = not missing and not extra
    detail = ""
    if missing:
        detail += " missing " + ", ".join("%s@%d" % (k, n) for n, k in sorted(missing))
    if extra:
        detail += " unexpected " + ", ".join("%s@%d" % (k, n) for n, k in sorted(extra))
    return ok, detail, len(want), len(want & got)


def check_corpus(binary, path, workdir):
    text = open(path).read()
    truth = TRUTH.search(text)
    if not truth:
        raise RuntimeError("no 'lkmm:' label in header")
    racy = truth.group(1) == "race"
    labelled = {n for n, line in enumerate(text.splitlines(), 1) if RACE.search(line)}
    findings = scan(binary, path, workdir)
    hit = any(same_file(l["file"], path) and l["line"] in labelled
              for fd in findings for l in fd["locations"]
              if l["role"] in ("plain-access", "racing-access"))
    return racy, hit, findings


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", default="build/kcsan-scan")
    ap.add_argument("--mode", choices=["examples", "corpus"], required=True)
    ap.add_argument("--min-recall", type=float, default=1.0)
    ap.add_argument("files", nargs="+")
    a = ap.parse_args()
    passed = failed = 0
    racy_total = racy_found = clean_total = false_pos = 0
    with tempfile.TemporaryDirectory() as tmp:
        for path in a.files:
            try:
                if a.mode == "examples":
                    ok, detail, _, _ = check_example(a.bin, path, tmp)
                    print("%s %s%s" % ("ok  " if ok else "FAIL", path, detail))
                else:
                    racy, hit, findings = check_corpus(a.bin, path, tmp)
                    if racy:
                        racy_total += 1
                        racy_found += hit
                        ok = hit
                        detail = "race found" if hit else "race MISSED (%d findings elsewhere)" % len(findings)
                    else:
                        clean_total += 1
                        ok = not findings
                        false_pos += bool(findings)
                        detail = "clean" if ok else "FALSE POSITIVE: " + "; ".join(
                            "%s@%d" % (fd["kind"], fd["locations"][0]["line"]) for fd in findings)
                    print("%s %s: %s" % ("ok  " if ok else "miss" if racy else "FAIL", path, detail))
                    if racy and not hit:
                        ok = None   # a miss counts against recall, below
            except (RuntimeError, ValueError, KeyError) as e:
                ok = False
                print("FAIL %s: %s" % (path, e))
            if ok is not None:
                passed += bool(ok)
                failed += not ok
    if a.mode == "corpus":
        recall = racy_found / racy_total if racy_total else 1.0
        print("static recall: %d/%d racy programs found (%.0f%%); false positives: %d/%d correct programs"
              % (racy_found, racy_total, 100 * recall, false_pos, clean_total))
        below = recall < a.min_recall
        if below:
            print("FAIL recall %.2f is below the required %.2f" % (recall, a.min_recall))
        print("%d passed, %d failed" % (passed, failed + below))
        return 1 if failed or below else 0
    print("%d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
