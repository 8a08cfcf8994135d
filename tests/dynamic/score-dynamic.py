#!/usr/bin/env python3
"""tests/dynamic/score-dynamic.py — dynamic evaluation on the labelled corpus.

For each labelled program (tests/corpus/README.md gives the label format):

  1. build it with `kcsan-scan cc` (KCSAN_CC = --cc, clang by default),
  2. scan it into a fresh database (the static half),
  3. run it under `kcsan-scan run --timeout T` into the same database:
       racy program    one run with a huge iteration count; the database is
                       polled and the run is stopped as soon as a race on a
                       labelled line (`// RACE(...)`) is recorded; a miss
                       is a run that reaches the timeout without one;
       correct program --fp-runs runs with the program's default iteration
                       count; any recorded race at all is a false positive.
  4. with --tsan, the same with ThreadSanitizer: clang-14 -fsanitize=thread
     and its own runtime, same timeout; a racy program is found when a
     "data race" report has a labelled line in the top frame of one of its
     two accesses; any report on a correct program is a false positive.

Figures (each on its own line, then the table):
  dynamic recall over the class `delayed-in-publisher: yes` (the writer keeps
  a delayed plain access inside the publishing function, in the weak-memory
  model of docs/design.md §5: the class that model is built to find; `gcc` or
  `clang` when only that compiler's build keeps it), dynamic recall over all racy
  programs, combined (static or dynamic) recall, false positives; and
  ThreadSanitizer's recall on the same class, on all racy programs and its
  false positives.

--min-class-recall R and --max-fp N make the exit status 1 when the class
recall is below R or more than N correct programs were reported (ours).
Ends with "N passed, M failed" like the other suites: a program passes when
its label is met (racy: found dynamically within the timeout, checked only
for the class unless --all-racy; correct: never reported).
"""
import argparse
import os
import re
import signal
import sqlite3
import subprocess
import sys
import tempfile
import time

RACE = re.compile(r"//\s*RACE\((writer|reader)\)")
TRUTH = re.compile(r"^\s*\*\s*lkmm:\s*(race|unordered|no-race)\b", re.M)
DELAYED = re.compile(r"^\s*\*\s*delayed-in-publisher:\s*(yes|no|gcc|clang)\b", re.M)
PROFILE = re.compile(r"^\s*\*\s*profile:\s*(.+?)\s*$", re.M)   # (tests/corpus/README.md)
TSAN_FRAME0 = re.compile(r"^\s+#0 \S+ (\S+?\.[ch]):(\d+)")
HUGE = "1000000000"     # iterations for a racy program: it runs until stopped


class Program:
    def __init__(self, path, cc="clang"):
        self.path = os.path.abspath(path)
        text = open(path).read()
        truth, delayed = TRUTH.search(text), DELAYED.search(text)
        if not truth or not delayed:
            raise ValueError("%s: missing lkmm:/delayed-in-publisher: label" % path)
        # (an unordered program has no data race: every access that takes
        # part is marked, so a runtime must report nothing, as on a
        # correct one; its bug is left to the static pass)
        self.racy = truth.group(1) == "race"
        # "gcc"/"clang": only that compiler's build keeps the delay (the
        # other one compiles the publication with a stronger order).
        self.in_class = delayed.group(1) in ("yes", os.path.basename(cc).split("-")[0])
        self.lines = {n for n, l in enumerate(text.splitlines(), 1) if RACE.search(l)}
        self.profile = PROFILE.findall(text.split("*/", 1)[0])
        self.name = os.path.basename(path)[:-2]


def same_file(f, path):
    return f is not None and os.path.realpath(f) == os.path.realpath(path)


def labelled_race(db, prog):
    """A recorded race with one of its accesses on a labelled line?"""
    try:
        con = sqlite3.connect("file:%s?mode=ro" % db, uri=True, timeout=5)
        rows = con.execute("SELECT a_file, a_line, b_file, b_line FROM races").fetchall()
        con.close()
    except sqlite3.Error:
        return None
    for af, al, bf, bl in rows:
        if (same_file(af, prog.path) and al in prog.lines) or \
           (same_file(bf, prog.path) and bl in prog.lines):
            return True
    return False


def count_races(db):
    con = sqlite3.connect(db, timeout=5)
    n = con.execute("SELECT count(*) FROM races").fetchone()[0]
    con.close()
    return n


def static_hit(ks, db, prog):
    import json
    rep = subprocess.run([ks, "report", "--db", db, "--format", "json"],
                         capture_output=True, text=True)
    if rep.returncode != 0:
        raise RuntimeError("report failed: " + rep.stderr.strip())
    return any(same_file(l["file"], prog.path) and l["line"] in prog.lines
               for fd in json.loads(rep.stdout)["findings"] for l in fd["locations"]
               if l["role"] in ("plain-access", "racing-access"))


def kill_group(p):
    try:
        os.killpg(p.pid, signal.SIGTERM)
    except ProcessLookupError:
        pass
    try:
        p.wait(5)
    except subprocess.TimeoutExpired:
        os.killpg(p.pid, signal.SIGKILL)
        p.wait()


def run_until(cmd, env, timeout, found, log):
    """Runs cmd in its own process group until found() or timeout; returns
    the seconds it took to find, or None."""
    start = time.monotonic()
    with open(log, "w") as out:
        p = subprocess.Popen(cmd, env=env, stdout=subprocess.DEVNULL, stderr=out,
                             start_new_session=True)
        while True:
            done = p.poll() is not None
            if found():
                t = time.monotonic() - start
                if not done:
                    kill_group(p)
                return t
            if done or time.monotonic() - start > timeout + 5:
                if not done:
                    kill_group(p)
                return None
            time.sleep(0.1)


def build(cmd, log, env=None):
    r = subprocess.run(cmd, capture_output=True, text=True, env=env)
    if r.returncode != 0:
        open(log, "w").write(r.stdout + r.stderr)
        raise RuntimeError("build failed: %s" % " ".join(cmd))


def ours(a, prog, work):
    exe = os.path.join(work, "k-" + prog.name)
    db = os.path.join(work, prog.name + ".db")
    env = dict(os.environ, KCSAN_CC=a.cc)
    env.pop("KCSAN_DB", None)
    build([a.bin, "cc", "-O1", "-g", "-std=gnu11", "-pthread", "-o", exe, prog.path],
          exe + ".log", env)   # (env: KCSAN_CC picks the compiler)
    scan = [a.bin, "scan", "-q", "--db", db]
    if prog.profile:
        prof = os.path.join(work, prog.name + ".prof")
        with open(prof, "w") as f:
            f.write("".join(line + "\n" for line in prog.profile))
        scan += ["--profile", prof]
    r = subprocess.run(scan + [prog.path], capture_output=True, text=True)
    if r.returncode not in (0, 1):
        raise RuntimeError("scan failed: " + r.stderr.strip())
    stat = prog.racy and static_hit(a.bin, db, prog)
    run = [a.bin, "run", "--db", db, "--timeout", str(a.timeout), "--"]
    if prog.racy:
        t = run_until(run + [exe, HUGE], env, a.timeout, lambda: labelled_race(db, prog),
                      exe + ".run.log")
        return stat, t, 0
    reported = 0
    for _ in range(a.fp_runs):
        before = count_races(db)
        subprocess.run(run + [exe], env=env, stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL)
        reported += count_races(db) > before
    return stat, None, reported


def tsan_hit(log, prog):
    try:
        text = open(log, errors="replace").read()
    except OSError:
        return False
    for block in text.split("WARNING: ThreadSanitizer: data race")[1:]:
        for line in block.splitlines():
            m = TSAN_FRAME0.match(line)
            if m and same_file(m.group(1), prog.path) and int(m.group(2)) in prog.lines:
                return True
    return False


def tsan(a, prog, work):
    exe = os.path.join(work, "t-" + prog.name)
    inc = os.path.join(os.path.dirname(os.path.abspath(a.bin)), "..", "include")
    build([a.tsan_cc, "-fsanitize=thread", "-O1", "-g", "-std=gnu11", "-pthread",
           "-I", os.path.normpath(inc), "-o", exe, prog.path], exe + ".log")
    env = dict(os.environ, TSAN_OPTIONS="halt_on_error=0")
    log = exe + ".run.log"
    if prog.racy:
        return run_until(["timeout", str(a.timeout), exe, HUGE], env, a.timeout,
                         lambda: tsan_hit(log, prog), log), 0
    reported = 0
    for _ in range(a.fp_runs):
        with open(log, "w") as out:
            subprocess.run(["timeout", str(a.timeout), exe], env=env,
                           stdout=subprocess.DEVNULL, stderr=out)
        reported += "WARNING: ThreadSanitizer" in open(log, errors="replace").read()
    return None, reported


def pct(n, d):
    return "%d/%d (%.0f%%)" % (n, d, 100.0 * n / d if d else 100.0)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", default="build/kcsan-scan")
    ap.add_argument("--cc", default="clang", help="KCSAN_CC for kcsan-scan cc")
    ap.add_argument("--timeout", type=int, default=10)
    ap.add_argument("--fp-runs", type=int, default=20)
    ap.add_argument("--tsan", action="store_true", help="also score ThreadSanitizer")
    ap.add_argument("--tsan-cc", default="clang-14")
    ap.add_argument("--min-class-recall", type=float, default=0.0)
    ap.add_argument("--max-fp", type=int, default=-1)
    ap.add_argument("files", nargs="+")
    a = ap.parse_args()
    a.bin = os.path.abspath(a.bin)
    progs = [Program(f, a.cc) for f in a.files]
    res = {}
    passed = failed = 0
    hdr = "%-40s %-6s %-5s %-7s %-9s" % ("program", "truth", "class", "static", "dynamic")
    if a.tsan:
        hdr += " %-9s" % "tsan"
    print(hdr)
    with tempfile.TemporaryDirectory() as work:
        for p in progs:
            try:
                stat, t, rep = ours(a, p, work)
                tt, trep = tsan(a, p, work) if a.tsan else (None, 0)
            except (RuntimeError, OSError, sqlite3.Error) as e:
                print("FAIL %s: %s" % (p.name, e))
                failed += 1
                continue
            res[p] = (stat, t, rep, tt, trep)
            if p.racy:
                dyn = "%.1fs" % t if t is not None else "miss"
                tcol = "%.1fs" % tt if tt is not None else "miss"
                ok = t is not None or not p.in_class
            else:
                dyn = "%d/%d rep" % (rep, a.fp_runs)
                tcol = "%d/%d rep" % (trep, a.fp_runs)
                ok = rep == 0
            line = "%-40s %-6s %-5s %-7s %-9s" % (
                p.name, "race" if p.racy else "clean", "yes" if p.in_class else "-",
                ("found" if stat else "miss") if p.racy else "-", dyn)
            if a.tsan:
                line += " %-9s" % tcol
            print(line, flush=True)
            passed += ok
            failed += not ok
    racy = [p for p in progs if p.racy and p in res]
    cls = [p for p in racy if p.in_class]
    clean = [p for p in progs if not p.racy and p in res]
    dyn_cls = sum(res[p][1] is not None for p in cls)
    fp = sum(res[p][2] > 0 for p in clean)
    print("dynamic recall, delayed-in-publisher class: %s within --timeout %d (%s)"
          % (pct(dyn_cls, len(cls)), a.timeout, a.cc))
    print("dynamic recall, all racy programs: %s" % pct(sum(res[p][1] is not None for p in racy), len(racy)))
    print("static recall, all racy programs: %s" % pct(sum(bool(res[p][0]) for p in racy), len(racy)))
    print("combined (static or dynamic) recall: %s" % pct(
        sum(bool(res[p][0]) or res[p][1] is not None for p in racy), len(racy)))
    print("false positives: %d/%d correct programs reported in %d runs each"
          % (fp, len(clean), a.fp_runs))
    if a.tsan:
        print("ThreadSanitizer (%s -fsanitize=thread): recall, class %s; all racy %s; "
              "false positives %d/%d correct programs"
              % (a.tsan_cc, pct(sum(res[p][3] is not None for p in cls), len(cls)),
                 pct(sum(res[p][3] is not None for p in racy), len(racy)),
                 sum(res[p][4] > 0 for p in clean), len(clean)))
    bad = (cls and dyn_cls / len(cls) < a.min_class_recall) or (a.max_fp >= 0 and fp > a.max_fp)
    print("%d passed, %d failed" % (passed, failed + bool(bad)))
    return 1 if failed or bad else 0


if __name__ == "__main__":
    sys.exit(main())
