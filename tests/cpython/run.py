"""CPython 3.11's own test modules as a test of tmpy.

Each module of modules.txt runs under python3 (the reference) and under a
tmpy build with CPython's unittest (driver.py); a test counts for tmpy when
it passes under both. The counts per module are compared with expected.txt
(the counts recorded when tmpy last improved): fewer is a regression.

    python3 tests/cpython/run.py [--exe build/tmpy-gil] [--all] [--update] [MODULE ...]

--all runs every module of the list (default: the fast set, marked `fast`),
--update writes the counts it measured into expected.txt (never lowers one
unless --lower), -j N runs N modules at once. The reference results are
kept in build/cpython-ref/ (python3 does not change between runs).
Needs Debian's libpython3.11-testsuite (`make setup` installs it)."""
import argparse
import concurrent.futures
import fcntl
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
BUILD = ROOT / "build"
MODULES = HERE / "modules.txt"
EXPECTED = HERE / "expected.txt"
REF_DIR = BUILD / "cpython-ref"
TIMEOUT = float(os.environ.get("TMPY_CPYTHON_TIMEOUT", "300"))


def read_modules():
    """[(module, is_fast)] from modules.txt: one module per line, `fast`
    after it for the set `make test` runs, # comments."""
    mods = []
    for line in MODULES.read_text().splitlines():
        line = line.split("#")[0].split()
        if line:
            mods.append((line[0], "fast" in line[1:]))
    return mods


def read_expected():
    """{(module, build): count}"""
    exp = {}
    if EXPECTED.exists():
        for line in EXPECTED.read_text().splitlines():
            parts = line.split("#")[0].split()
            if len(parts) == 3:
                exp[parts[0], parts[1]] = int(parts[2])
    return exp


def write_expected(exp):
    lines = ["# tests of each CPython module that pass under python3 and under the build (tests/cpython/run.py)",
             "# module build count"]
    for (mod, build), n in sorted(exp.items()):
        lines.append(f"{mod} {build} {n}")
    EXPECTED.write_text("\n".join(lines) + "\n")


def run_module(exe, module, result_file, timeout=TIMEOUT):
    """Runs the driver in a scratch directory (tests write files into the
    current one); returns ({test id: outcome}, note, seconds), the note
    saying why the run ended early (import error, timeout, exit status)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("TMPY_") or k.startswith("TMPY_CPYTHON")}
    result_file.parent.mkdir(parents=True, exist_ok=True)
    if result_file.exists():
        result_file.unlink()
    note = ""
    start = time.monotonic()
    scratch = tempfile.mkdtemp(prefix=f"cpython-{module}-")
    try:
        p = subprocess.run([str(exe), str(HERE / "driver.py"), module, str(result_file)], cwd=scratch,
                           stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                           timeout=timeout, env=env)
        if p.returncode != 0:
            tail = p.stderr.decode(errors="replace").strip().splitlines()[-1:] or [""]
            note = f"exit {p.returncode}: {tail[0][:120]}"
    except subprocess.TimeoutExpired:
        note = f"timeout after {timeout:.0f} s"
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    outcomes, done, import_note = parse_results(result_file)
    note = import_note or note or ("" if done else "ended early")
    return outcomes, note, time.monotonic() - start


def parse_results(f):
    """({test id: outcome}, finished, import error note) from a driver's file;
    a test passes when every line about it says pass (subtests)."""
    outcomes, done, note = {}, False, ""
    if not f.exists():
        return outcomes, done, note
    for line in f.read_text(encoding="utf-8", errors="replace").splitlines():
        if line == "done":
            done = True
            continue
        outcome, _, test = line.partition(" ")
        if outcome == "import-error":
            note = "import error: " + test.partition(" ")[2][:160]
        elif outcomes.get(test, "pass") == "pass" or outcome != "pass":
            outcomes[test] = outcome
    return outcomes, done, note


def reference(module):
    """The reference interpreter's outcomes (CPython 3.11: TMPY_REF_PYTHON,
    default python3), run once and kept in build/cpython-ref/."""
    f = REF_DIR / f"{module}.txt"
    REF_DIR.mkdir(parents=True, exist_ok=True)
    # Under a lock: the two builds' tests of one module may run at once (make
    # test's pytest-xdist workers), and the second must not read or remove the
    # first one's half-written file.
    with open(REF_DIR / f"{module}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        outcomes, done, note = parse_results(f)
        if not done and not note:
            run_module(os.environ.get("TMPY_REF_PYTHON", "python3"), module, f)
            outcomes, done, note = parse_results(f)
    return outcomes, note


def measure(exe, module):
    ref, ref_note = reference(module)
    want = {t for t, o in ref.items() if o == "pass"}
    got, note, secs = run_module(exe, module, BUILD / "cpython-out" / Path(exe).name / f"{module}.txt")
    passed = {t for t, o in got.items() if o == "pass"} & want
    return {"module": module, "cpython": len(want), "tmpy": len(passed), "note": note, "secs": secs,
            "lost": sorted(want - passed)}


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--exe", default=str(BUILD / "tmpy-gil"))
    ap.add_argument("--all", action="store_true")
    ap.add_argument("--update", action="store_true")
    ap.add_argument("--lower", action="store_true")
    ap.add_argument("-j", type=int, default=1)
    ap.add_argument("--table", help="write the per-module table to this file")
    ap.add_argument("modules", nargs="*")
    a = ap.parse_args(argv)
    mods = a.modules or [m for m, fast in read_modules() if a.all or fast]
    a.exe = str(Path(a.exe).resolve())
    build = Path(a.exe).name
    exp = read_expected()
    with concurrent.futures.ThreadPoolExecutor(a.j) as pool:
        results = list(pool.map(lambda m: measure(a.exe, m), mods))
    regressions = []
    tot_c = tot_t = 0
    rows = [f"{'module':34} {'cpython':>7} {build:>9} {'%':>6} {'s':>6}  note"]
    for r in results:
        tot_c += r["cpython"]
        tot_t += r["tmpy"]
        pct = 100.0 * r["tmpy"] / r["cpython"] if r["cpython"] else 100.0
        rows.append(f"{r['module']:34} {r['cpython']:7} {r['tmpy']:9} {pct:6.1f} {r['secs']:6.1f}  {r['note']}")
        want = exp.get((r["module"], build))
        if want is not None and r["tmpy"] < want:
            regressions.append(f"{r['module']}: {r['tmpy']} pass under {build}, expected.txt says {want}; "
                               f"lost e.g. {r['lost'][:5]}")
        if a.update and (want is None or r["tmpy"] > want or a.lower):
            exp[r["module"], build] = r["tmpy"]
    pct = 100.0 * tot_t / tot_c if tot_c else 100.0
    rows.append(f"{'total':34} {tot_c:7} {tot_t:9} {pct:6.1f}")
    print("\n".join(rows))
    if a.table:
        Path(a.table).write_text("\n".join(rows) + "\n")
    if a.update:
        write_expected(exp)
    if regressions:
        print("\nREGRESSIONS:\n" + "\n".join(regressions))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
