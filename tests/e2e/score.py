#!/usr/bin/env python3
"""tests/e2e/score.py — run kcsan-scan over labelled programs and score it.

Each program is scanned on its own (a fresh database) and its JSON report is
compared with the labels written in the program itself:

  examples mode  `// EXPECT: KIND` on a line: a finding of KIND must start
                 (first location) on that line; any other finding is wrong.
                 A file without markers (a fixed twin) must have no finding.
  corpus mode    the header says `lkmm: race`, `lkmm: unordered` or
                 `lkmm: no-race`; lines of racy plain accesses carry
                 `// RACE(writer)` / `// RACE(reader)`, lines of the marked but
                 unordered accesses `// UNORDERED(writer)` / `(reader)`.
                 A racy or unordered program is found when some finding has a
                 location on a labelled line; any finding on a no-race program
                 is a false positive.  `profile: LINE` header lines are
                 profile lines the program is scanned with.
  limitations    the reproducers of docs/limitations.md, each a file or a
                 directory (a directory is scanned as one tree: several
                 programs), labelled like the examples (`EXPECT:`) when it
                 carries such a marker (right: every expected finding, and no
                 finding on an unmarked line), like the corpus otherwise.  Each is
                 an expected failure: `xfail` while the analyser still gets
                 it wrong, `XPASS` (a failure of the suite) once it gets it
                 right -- then the weakness is fixed: move the reproducer
                 into a real test and update docs/limitations.md.  With
                 --doc FILE, a reproducer that FILE does not name fails too.

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
RACE = re.compile(r"//\s*(RACE|UNORDERED)\((writer|reader)\)")
TRUTH = re.compile(r"^\s*\*\s*lkmm:\s*(race|unordered|no-race)\b", re.M)
# "profile: LINE" in a corpus header: a profile line the program is scanned
# with (memory shared with an agent outside the tree: "NAME external none")
PROFILE = re.compile(r"^\s*\*\s*profile:\s*(.+?)\s*$", re.M)
# the roles of a finding's accesses that a marker can label (a flag's
# publish/consume locations are not the racy accesses; a store-buffering
# finding's four accesses all are)
ACCESS_ROLES = ("plain-access", "racing-access", "store", "load", "other-store", "other-load")


def scan(binary, path, workdir, profile_lines=()):
    db = os.path.join(workdir, "k.db")
    for suffix in ("", "-wal", "-shm"):
        if os.path.exists(db + suffix):
            os.unlink(db + suffix)
    cmd = [binary, "scan", "-q", "--db", db]
    if profile_lines:
        prof = os.path.join(workdir, "header.prof")
        with open(prof, "w") as f:
            f.write("".join(line + "\n" for line in profile_lines))
        cmd += ["--profile", prof]
    r = subprocess.run(cmd + [path], capture_output=True, text=True)
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


def kinds(fd):
    """The kinds of a finding's pairings: its own and those of the other
    pairings listed inside it (one finding per site)."""
    return [fd["kind"]] + [c["kind"] for c in fd.get("counterparts", [])]


def all_locations(fd):
    """Every location of a finding, its counterparts' too."""
    return fd["locations"] + [l for c in fd.get("counterparts", []) for l in c["locations"]]


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
        for kind in kinds(fd):
            got.add((loc["line"] if same_file(loc["file"], path) else -1, kind))
    missing, extra = want - got, got - want
    ok = not missing and not extra
    detail = ""
    if missing:
        detail += " missing " + ", ".join("%s@%d" % (k, n) for n, k in sorted(missing))
    if extra:
        detail += " unexpected " + ", ".join("%s@%d" % (k, n) for n, k in sorted(extra))
    return ok, detail, len(want), len(want & got)


def sources(path):
    """The C files of a reproducer: the file itself, or a directory's *.c."""
    if os.path.isdir(path):
        return sorted(os.path.join(path, n) for n in os.listdir(path) if n.endswith(".c"))
    return [path]


def check_limitation(binary, path, workdir):
    """Score one reproducer by its labels; returns (right, what was reported)."""
    files = sources(path)
    if not files:
        raise RuntimeError("no C file")
    texts = {f: open(f).read() for f in files}
    want = {(os.path.abspath(f), n, kind) for f, t in texts.items()
            for n, line in enumerate(t.splitlines(), 1) for kind in EXPECT.findall(line)}
    truths = {m.group(1) for t in texts.values() for m in [TRUTH.search(t)] if m}
    if not want and len(truths) != 1:
        raise RuntimeError("needs EXPECT markers or one 'lkmm:' label (found %s)" % (sorted(truths) or "none"))
    findings = scan(binary, path.rstrip("/"), workdir)
    seen = "; ".join("%s@%s:%d" % (fd["kind"], os.path.basename(fd["locations"][0]["file"]),
                                   fd["locations"][0]["line"]) for fd in findings) or "no finding"
    if want:
        got = {(os.path.abspath(fd["locations"][0]["file"]), fd["locations"][0]["line"], kind)
               for fd in findings for kind in kinds(fd)}
        # right: every expected finding, and nothing that starts on a line
        # without a marker (a second kind on a marked line is tolerated)
        return want <= got and {g[:2] for g in got} <= {w[:2] for w in want}, seen
    labelled = {(os.path.abspath(f), n) for f, t in texts.items()
                for n, line in enumerate(t.splitlines(), 1) if RACE.search(line)}
    if truths <= {"race", "unordered"}:
        hit = any((os.path.abspath(l["file"]), l["line"]) in labelled
                  for fd in findings for l in all_locations(fd)
                  if l["role"] in ACCESS_ROLES)
        return hit, seen
    return not findings, seen


def check_corpus(binary, path, workdir):
    text = open(path).read()
    truth = TRUTH.search(text)
    if not truth:
        raise RuntimeError("no 'lkmm:' label in header")
    racy = truth.group(1) != "no-race"
    labelled = {n for n, line in enumerate(text.splitlines(), 1) if RACE.search(line)}
    findings = scan(binary, path, workdir, PROFILE.findall(text.split("*/", 1)[0]))
    hit = any(same_file(l["file"], path) and l["line"] in labelled
              for fd in findings for l in all_locations(fd)
              if l["role"] in ACCESS_ROLES)
    return racy, hit, findings


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", default="build/kcsan-scan")
    ap.add_argument("--mode", choices=["examples", "corpus", "limitations"], required=True)
    ap.add_argument("--min-recall", type=float, default=1.0)
    ap.add_argument("--doc", help="limitations: the document that must name every reproducer")
    ap.add_argument("files", nargs="+")
    a = ap.parse_args()
    passed = failed = 0
    racy_total = racy_found = clean_total = false_pos = 0
    with tempfile.TemporaryDirectory() as tmp:
        for path in a.files:
            try:
                if a.mode == "limitations":
                    right, seen = check_limitation(a.bin, path, tmp)
                    named = a.doc is None or path.rstrip("/") in open(a.doc).read()
                    ok = not right and named
                    if right:
                        print("XPASS %s: the analyser now gets it right (%s): the weakness is fixed; "
                              "move the reproducer into a real test and update docs/limitations.md" % (path, seen))
                    elif not named:
                        print("FAIL %s: not named in %s" % (path, a.doc))
                    else:
                        print("xfail %s: %s" % (path, seen))
                elif a.mode == "examples":
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
    if a.mode == "limitations" and a.doc:
        # and every reproducer the document names exists
        for named in sorted(set(re.findall(r"tests/limitations/[\w.-]+", open(a.doc).read()))):
            if not os.path.exists(named):
                failed += 1
                print("FAIL %s: named in %s, but not there" % (named, a.doc))
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
