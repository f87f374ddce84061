#!/usr/bin/env python3
"""Locks from two threads (issue 20): bench/py/locks_parallel.py under
build/tmpy and build/tmpy-gil (and, with --before DIR, the tmpy and tmpy-gil
in DIR), each configuration in ROUNDS processes, interleaved. Configurations:
threading.Lock, RLock and tm.synchronized; each thread its own lock ("own")
or one shared lock ("shared"); the locks fresh or first contended once
("contended": an RLock's or object's monitor is then a fat lock). Reports the
best and median wall time of the threaded part, and for the STM build the
median share of transactions that were inevitable (TMPY_STATS): an
uncontended lock should cost a transactional write, not inevitability.
Writes bench/results/locks.txt unless --out says otherwise.

  bench/py_locks.py [--before DIR] [--rounds R] [--iters N] [--out FILE]"""
import argparse
import os
import pathlib
import platform
import re
import statistics
import subprocess
import sys
import time

ROOT = pathlib.Path(__file__).resolve().parent.parent
PROG = ROOT / "bench" / "py" / "locks_parallel.py"
CONFIGS = [(v, s, p) for p in ("fresh", "contended") for s in ("own", "shared") for v in ("Lock", "RLock", "tm")]
STATS = re.compile(r"tmpy stats: (\d+) transactions.*?, (\d+) inevitable transitions")


def run(exe, variant, sharing, prep, iters, stm):
    env = dict(os.environ, TMPY_STATS="1") if stm else dict(os.environ)
    args = [str(exe), str(PROG), variant, sharing, "2", str(iters), "contended" if prep == "contended" else "none"]
    p = subprocess.run(args, capture_output=True, text=True, timeout=600, env=env)
    out = p.stdout.split()
    if p.returncode != 0 or len(out) < 7 or out[-1] == "FAILED":
        print("FAILED:", " ".join(args), p.stdout, p.stderr[-500:], file=sys.stderr)
        return None
    m = STATS.search(p.stderr) if stm else None
    share = int(m.group(2)) / int(m.group(1)) if m else None
    return float(out[6]), share


def machine():
    cpu = "?"
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    cpu = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    return "%s, %d CPUs, %s, Linux %s" % (platform.machine(), os.cpu_count(), cpu, platform.release())


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--before")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--iters", type=int, default=1000000)
    ap.add_argument("--out", default=str(ROOT / "bench" / "results" / "locks.txt"))
    o = ap.parse_args()
    interps = [("tmpy", ROOT / "build" / "tmpy", True), ("tmpy-gil", ROOT / "build" / "tmpy-gil", False)]
    if o.before:
        interps += [("before tmpy", pathlib.Path(o.before) / "tmpy", True),
                    ("before gil", pathlib.Path(o.before) / "tmpy-gil", False)]
    load0 = os.getloadavg()[0]
    res = {}
    failed = False
    for _ in range(o.rounds):
        for cfg in CONFIGS:
            for name, exe, stm in interps:
                r = run(exe, *cfg, o.iters, stm)
                if r is None:
                    failed = True
                else:
                    res.setdefault((cfg, name), []).append(r)
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True,
                            text=True).stdout.strip()
    lines = ["== locks: 2 threads x %d `with lock: counter += 1`, own lock or one shared ==" % o.iters,
             "date:     " + time.strftime("%Y-%m-%d %H:%M:%S UTC", time.gmtime()),
             "machine:  " + machine(),
             "commit:   %s (build/tmpy, build/tmpy-gil)%s" % (commit, "; before: " + o.before if o.before else ""),
             "command:  bench/py_locks.py " + " ".join(sys.argv[1:]),
             "runs:     %d process(es) per cell, interleaved" % o.rounds,
             "load:     %.2f at the start, %.2f at the end (1-minute load average; other work on the 2 CPUs "
             "distorts parallel timings)" % (load0, os.getloadavg()[0]),
             "",
             "wall s, best / median; inev = median share of the STM build's transactions that were inevitable"]
    head = "%-26s" % "lock sharing prep"
    for name, _, stm in interps:
        head += "%22s" % name + ("%7s" % "inev" if stm else "")
    lines.append(head)
    for cfg in CONFIGS:
        line = "%-26s" % " ".join(cfg)
        for name, _, stm in interps:
            rs = res.get((cfg, name), [])
            if not rs:
                line += "%22s" % "failed" + ("%7s" % "" if stm else "")
                continue
            w = [r[0] for r in rs]
            line += "%22s" % ("%.3f / %.3f" % (min(w), statistics.median(w)))
            if stm:
                sh = [r[1] for r in rs if r[1] is not None]
                line += "%7s" % ("%.0f%%" % (100 * statistics.median(sh)) if sh else "?")
        lines.append(line)
    text = "\n".join(lines) + "\n"
    print(text)
    if o.out:
        with open(o.out, "w") as f:
            f.write(text)
    sys.exit(1 if failed else 0)


main()
