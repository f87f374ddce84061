#!/usr/bin/env python3
"""Locking micro-benchmarks of paper 002 (thin locks), Table 2, in Python:
bench/py/sync_micro.py runs each benchmark under build/tmpy-gil with
tm.synchronized on a plain object ("tm"), threading.Lock and threading.RLock,
and under python3 (CPython 3.11) with Lock and RLock, all in one session.
Each configuration runs in ROUNDS separate processes, interleaved with the
others; each process times LOOPS runs of the loop; the best is kept.
Prints ns per iteration, the net cost of the lock (minus the reference loop)
and time ratios against python3's Lock and RLock, and writes
bench/results/py_sync.txt (not with --quick unless --out is given).

  bench/py_sync.py [--tmpy PATH] [--python PATH] [--quick] [--rounds R]
                   [--loops L] [--scale S] [--only NAME,...] [--out FILE]

TMPY_BENCH_REPEAT (rounds, default 5) and TMPY_BENCH_SCALE (multiplies the
iteration counts, default 1) are honoured as by py_single.py; the options
take precedence. Exit status 1 if any run failed (crash, timeout, wrong
count)."""
import argparse
import math
import os
import pathlib
import platform
import shlex
import subprocess
import sys
import time

ROOT = pathlib.Path(__file__).resolve().parent.parent
PROG = ROOT / "bench" / "py" / "sync_micro.py"
TIMEOUT = 300   # seconds for one process: a deadlock shows up as a failure

# name -> iterations (0.1-0.25 s per loop under python3 on the reference
# machine). Multiples of 64 (MultiSync and Threads share them out); scaled
# counts are rounded down to a multiple of 64.
BENCHES = {
    "NoSync": 4000000, "Sync": 800000, "NestedSync": 800000,
    "MultiSync1": 800000, "MultiSync8": 800000, "MultiSync64": 800000,
    "Call": 2000000, "CallSync": 800000, "NestedCallSync": 800000,
    "Threads1": 640000, "Threads2": 640000, "Threads4": 640000,
}
REFERENCE = {"NoSync": None, "Call": None,
             "CallSync": "Call", "NestedCallSync": "Call"}   # others: NoSync
NESTED = ("NestedSync", "NestedCallSync")   # need a re-entrant lock
# Columns: (key, interpreter, variant).
COLUMNS = [("py-Lock", "py", "Lock"), ("py-RLock", "py", "RLock"),
           ("tm-Lock", "tm", "Lock"), ("tm-RLock", "tm", "RLock"), ("tm-tm", "tm", "tm")]
HEADS = {"py-Lock": "py3 Lock", "py-RLock": "py3 RLock", "tm-Lock": "tmpy Lock",
         "tm-RLock": "tmpy RLock", "tm-tm": "tmpy tm"}


def reference(name):
    return REFERENCE.get(name, "NoSync")


def variant_of(name, variant):
    """The variant the program is run with, or None if the cell does not exist."""
    if name in ("NoSync", "Call"):
        return "none"
    if name in NESTED and variant == "Lock":
        return None
    return variant


def machine():
    cpu = "unknown"
    mem = "unknown"
    try:
        for line in open("/proc/cpuinfo"):
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
        for line in open("/proc/meminfo"):
            if line.startswith("MemTotal:"):
                mem = "%.1f GiB" % (int(line.split()[1]) / 1048576)
                break
    except OSError:
        pass
    return "%s, %d CPUs, %s, %s memory, Linux %s" % (platform.machine(), os.cpu_count(), cpu, mem,
                                                     platform.release())


def run(exe, name, variant, n, loops):
    """Runs one process; returns (ns per iteration, None) or (None, why it failed)."""
    cmd = [str(exe), str(PROG), name, variant, str(n), str(loops)]
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=TIMEOUT)
    except subprocess.TimeoutExpired:
        return None, "timeout after %d s" % TIMEOUT
    if p.returncode != 0:
        last = (p.stdout + p.stderr).strip().splitlines()[-1:] or ["(no output)"]
        return None, "exit %d: %s" % (p.returncode, last[0])
    f = p.stdout.split()
    if len(f) != 5 or f[:4] != [name, variant, str(n), str(n)]:
        return None, "unexpected output %r" % p.stdout.strip()
    return float(f[4]), None


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--tmpy", default=str(ROOT / "build" / "tmpy-gil"), help="tmpy binary")
    ap.add_argument("--python", default=sys.executable, help="CPython binary (default: this one)")
    ap.add_argument("--quick", action="store_true",
                    help="fast check: scale 0.1, one round of one loop, no results file")
    ap.add_argument("--rounds", type=int, default=None, help="processes per configuration")
    ap.add_argument("--loops", type=int, default=None, help="timed loops per process")
    ap.add_argument("--scale", type=float, default=None, help="multiplies the iteration counts")
    ap.add_argument("--only", default=None, help="comma-separated benchmark names")
    ap.add_argument("--out", default=None, help="results file (default bench/results/py_sync.txt)")
    args = ap.parse_args()
    rounds = args.rounds or (1 if args.quick else int(os.environ.get("TMPY_BENCH_REPEAT", "5")))
    loops = args.loops or (1 if args.quick else 2)
    scale = args.scale if args.scale is not None else (
        0.1 if args.quick else float(os.environ.get("TMPY_BENCH_SCALE", "1")))
    names = list(BENCHES)
    if args.only:
        names = [s for s in args.only.split(",") if s]
        bad = [s for s in names if s not in BENCHES]
        if bad:
            ap.error("unknown benchmark %s (known: %s)" % (", ".join(bad), ", ".join(BENCHES)))
        # the net-cost table needs the reference loops
        names = [s for s in BENCHES if s in names or any(reference(m) == s for m in names)]
    out_path = args.out or (None if args.quick else str(ROOT / "bench" / "results" / "py_sync.txt"))
    exes = {"py": args.python, "tm": args.tmpy}

    lines = []

    def out(s=""):
        print(s, flush=True)
        lines.append(s)

    tmpy_abs = os.path.abspath(args.tmpy)
    tmpy_rel = os.path.relpath(tmpy_abs, ROOT) if tmpy_abs.startswith(str(ROOT) + os.sep) \
        else args.tmpy
    probe = subprocess.run([args.tmpy, "-c", "import tm, threading; print(tm.mode())"],
                           capture_output=True, text=True)
    tm_mode = probe.stdout.strip() if probe.returncode == 0 else \
        "NOT AVAILABLE (%s)" % ((probe.stderr.strip().splitlines() or ["?"])[-1])
    pyver = subprocess.run([args.python, "-c", "import sys; print(sys.version.split()[0])"],
                           capture_output=True, text=True).stdout.strip()
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True,
                            text=True).stdout.strip() or "unknown"
    me = os.path.relpath(os.path.abspath(sys.argv[0]), ROOT)
    out("== py_sync: lock micro-benchmarks (paper 002, Table 2), tmpy-gil vs python3 ==")
    out("date:     " + time.strftime("%Y-%m-%d %H:%M:%S UTC", time.gmtime()))
    out("machine:  " + machine())
    out("python3:  %s (%s)" % (pyver, args.python))
    out("tmpy:     %s, tm.mode() = %s" % (tmpy_rel, tm_mode))
    out("commit:   " + commit)
    out("command:  " + " ".join(shlex.quote(a) for a in [me] + sys.argv[1:]))
    out("runs:     best of %d process(es) x %d loop(s) each, scale %g" % (rounds, loops, scale))
    load0 = os.getloadavg()

    # Interleave: every round runs every configuration once, benchmark by
    # benchmark, alternating interpreters, so drift hits all of them alike.
    best = {}       # (name, column) -> ns per iteration
    failed = {}     # (name, column) -> reason
    done = {}       # (name, interpreter, program variant) -> first column measured
    t_start = time.time()
    for _ in range(rounds):
        for name in names:
            n = max(64, int(BENCHES[name] * scale) // 64 * 64)
            for col, interp, variant in COLUMNS:
                v = variant_of(name, variant)
                if v is None:
                    continue
                first = done.setdefault((name, interp, v), col)
                if first != col or (name, col) in failed:
                    continue   # a reference loop is measured once per interpreter
                ns, why = run(exes[interp], name, v, n, loops)
                if why:
                    failed[(name, col)] = why
                else:
                    best[(name, col)] = min(best.get((name, col), math.inf), ns)
    elapsed = time.time() - t_start
    out("load:     %.2f at the start, %.2f at the end (1-minute load average: other work"
        % (load0[0], os.getloadavg()[0]))
    out("          on the machine slows every column; best-of keeps the least disturbed run)")
    out()

    def source(name, col):
        """The measurement a cell shows: (name, column first measured for the
        same program), or None if the cell does not exist."""
        interp, variant = col.split("-")
        v = variant_of(name, variant)
        return None if v is None else (name, done.get((name, interp, v), col))

    def cell(name, col):
        """ns per iteration of a cell, its reference loop's for NoSync/Call."""
        src = source(name, col)
        return best.get(src) if src else None

    def fmt(x, width=11, prec=1):
        return ("%*.*f" % (width, prec, x)) if x is not None else "%*s" % (width, "-")

    def status(name, col):
        src = source(name, col)
        return "n/a" if src is None else "FAIL" if src in failed else "-"

    def row(name, values):
        return "%-15s" % name + "".join(
            fmt(v) if v is not None else "%11s" % status(name, col) for col, v in values)

    head = "%-15s" % "benchmark" + "".join("%11s" % HEADS[c] for c, _, _ in COLUMNS)
    out("ns per iteration (one increment and, but for NoSync/Call, one lock/unlock)")
    out(head)
    for name in names:
        out(row(name, [(c, cell(name, c)) for c, _, _ in COLUMNS]))
    out()
    out("net ns of the lock per iteration: time minus its reference loop's on the same")
    out("interpreter (NoSync; Call for CallSync/NestedCallSync)")
    out(head)
    for name in names:
        if name in ("NoSync", "Call"):
            continue
        vals = []
        for c, _, _ in COLUMNS:
            x, r = cell(name, c), cell(reference(name), c)
            vals.append((c, x - r if x is not None and r is not None else None))
        out(row(name, vals))
    out()
    pairs = [("tm-tm", "py-Lock", "tm/py3Lock"), ("tm-tm", "py-RLock", "tm/py3RLock"),
             ("tm-Lock", "py-Lock", "Lock/py3Lock"), ("tm-RLock", "py-RLock", "RLock/py3RLock")]
    out("time ratios, tmpy-gil / python3 (< 1: tmpy faster); geometric mean over the")
    out("lock benchmarks (not NoSync/Call)")
    out("%-15s" % "benchmark" + "".join("%15s" % p[2] for p in pairs))
    logs = {p[2]: [] for p in pairs}
    for name in names:
        s = "%-15s" % name
        for a, b, label in pairs:
            x, y = cell(name, a), cell(name, b)
            if x is None or y is None:
                st = (status(name, a), status(name, b))
                s += "%15s" % ("n/a" if "n/a" in st else "FAIL" if "FAIL" in st else "-")
                continue
            s += "%15.2f" % (x / y)
            if name not in ("NoSync", "Call"):
                logs[label].append(math.log(x / y))
        out(s)
    out("%-15s" % "geomean" + "".join(
        ("%15.2f" % math.exp(sum(logs[p[2]]) / len(logs[p[2]]))) if logs[p[2]] else "%15s" % "-"
        for p in pairs))
    out()
    out("n/a: NestedSync and NestedCallSync hold the lock already when they lock it, so")
    out("they need a re-entrant lock (tm or RLock); threading.Lock would deadlock.")
    out("NoSync and Call take no lock: one measurement per interpreter, shown in every")
    out("column of that interpreter. MultiSyncN: times are per lock (each iteration")
    out("goes round N locks) and include the inner loop. ThreadsN: N threads share the")
    out("iterations on one lock around a shared attribute (o.x += 1, dearer than a local),")
    out("on %d CPUs, timed from their release to the last join. tmpy-gil switches threads" % os.cpu_count())
    out("only at yield points (loop back-edges, function exits), none inside the block, so")
    out("there the lock is not contended: ThreadsN measures locking plus GIL hand-offs.")
    if failed:
        out()
        out("failed:")
        for (name, col), why in failed.items():
            out("  %s %s: %s" % (name, HEADS[col], why))
    print("(%.0f s)" % elapsed)
    if out_path:
        pathlib.Path(out_path).write_text("\n".join(lines) + "\n")
        print("(written to %s)" % out_path)
    else:
        print("(quick run: no results file written; --out FILE to write one)")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
