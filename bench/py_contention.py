#!/usr/bin/env python3
"""Threads that share data: bench/py/contention.py's workloads under build/tmpy
(default segments and TMPY_SEGMENTS=4) and build/tmpy-gil, best of ROUNDS.

  bench/py_contention.py [--rounds R] [--threads 2,4,8] [--total N] [--base EXE]
                         [--env K=V ...] [--workloads dict,mixed,...]

--base adds another STM binary (e.g. a build from before a change) as a column.
--env adds variables to every tmpy run (e.g. TMPY_TXLEN=1000). Prints a table
of wall times in seconds and tmpy/tmpy-gil ratios."""
import argparse
import os
import pathlib
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
PROG = ROOT / "bench" / "py" / "contention.py"
SIZES = {"dict": 600000, "counters": 600000, "mixed": 300000, "loops": 20000000, "half": 4000000}


def run_once(exe, workload, threads, total, env):
    full = dict(os.environ, **env)
    p = subprocess.run([exe, str(PROG), workload, str(threads), str(total)], capture_output=True, text=True,
                       timeout=900, env=full)
    if p.returncode != 0:
        raise RuntimeError(f"{exe} {workload} {threads}: {p.stderr.strip()[-300:]}")
    return float(p.stdout.split()[-1])


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=1)
    ap.add_argument("--threads", default="2,4,8")
    ap.add_argument("--scale", type=float, default=1.0)
    ap.add_argument("--base")
    ap.add_argument("--env", action="append", default=[])
    ap.add_argument("--workloads", default=",".join(SIZES))
    a = ap.parse_args()
    extra = dict(kv.split("=", 1) for kv in a.env)
    cols = [("gil", str(ROOT / "build" / "tmpy-gil"), {}),
            ("tmpy", str(ROOT / "build" / "tmpy"), extra),
            ("tmpy seg4", str(ROOT / "build" / "tmpy"), dict(extra, TMPY_SEGMENTS="4"))]
    if a.base:
        cols += [("base", a.base, {}), ("base seg4", a.base, {"TMPY_SEGMENTS": "4"})]
    print(f"load {os.getloadavg()[0]:.2f}; env {extra}")
    print(f"{'workload':10}{'thr':>4}" + "".join(f"{c[0]:>11}" for c in cols) + f"{'tmpy/gil':>10}{'seg4/gil':>10}")
    for w in a.workloads.split(","):
        for t in (int(x) for x in a.threads.split(",")):
            n = int(SIZES[w] * a.scale)
            best = []
            for label, exe, env in cols:
                b = None
                for _ in range(a.rounds):
                    try:
                        s = run_once(exe, w, t, n, env)
                    except (RuntimeError, subprocess.TimeoutExpired) as e:
                        print("FAILED", e, file=sys.stderr)
                        continue
                    b = s if b is None else min(b, s)
                best.append(b)
            cells = "".join(f"{x:>11.3f}" if x is not None else f"{'-':>11}" for x in best)
            r1 = best[1] / best[0] if best[0] and best[1] else float("nan")
            r2 = best[2] / best[0] if best[0] and best[2] else float("nan")
            print(f"{w:10}{t:>4}{cells}{r1:>10.2f}{r2:>10.2f}", flush=True)


main()
