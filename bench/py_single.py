#!/usr/bin/env python3
"""Single-thread Python benchmarks: each bench/py/*.py runs under python3
(CPython 3.11) and build/tmpy-gil in one session, alternating, best of
REPEAT runs each. Outputs must agree (a benchmark that prints something
else under tmpy is a bug, reported as such). Prints the tmpy/CPython time
ratio of each and the geometric mean, and writes bench/results/py_single.txt.

TMPY_BENCH_REPEAT (default 3) and TMPY_BENCH_SCALE (default 1: multiplies
each benchmark's size argument) lengthen the run."""
import math
import os
import pathlib
import platform
import subprocess
import sys
import time

ROOT = pathlib.Path(__file__).resolve().parent.parent
TMPY = ROOT / "build" / "tmpy-gil"
REPEAT = int(os.environ.get("TMPY_BENCH_REPEAT", "3"))
SCALE = float(os.environ.get("TMPY_BENCH_SCALE", "1"))

# name -> size argument (about half a second to a second under CPython here)
BENCHES = {
    "richards": 20, "nbody": 100000, "spectral_norm": 200, "fannkuch": 9, "nqueens": 8,
    "float_bench": 150000, "raytrace": 160, "chaos": 400000, "dict_str": 400000,
    "generators": 400000,
}


def run_once(exe, script, arg):
    t0 = time.perf_counter()
    p = subprocess.run([str(exe), str(script), str(arg)], capture_output=True, text=True)
    dt = time.perf_counter() - t0
    return dt, p.returncode, p.stdout, p.stderr


def main():
    lines = []

    def out(s=""):
        print(s, flush=True)
        lines.append(s)

    out("== py_single: tmpy-gil vs python3, one thread ==")
    out("date:     " + time.strftime("%Y-%m-%d %H:%M:%S UTC", time.gmtime()))
    out("machine:  %s, %d CPUs, %s" % (platform.processor() or platform.machine(), os.cpu_count(),
                                        open("/proc/cpuinfo").read().split("model name")[1].split("\n")[0].split(":", 1)[1].strip()))
    out("python3:  " + sys.version.split()[0])
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True,
                            text=True).stdout.strip()
    out("commit:   " + commit)
    out("repeat:   best of %d, scale %g" % (REPEAT, SCALE))
    out()
    out("%-14s %10s %10s %8s" % ("benchmark", "python3 s", "tmpy s", "ratio"))
    ratios = []
    failed = []
    for name, arg in BENCHES.items():
        script = ROOT / "bench" / "py" / (name + ".py")
        arg = max(1, int(arg * SCALE))
        best = {"py": math.inf, "tm": math.inf}
        outputs = {}
        ok = True
        for _ in range(REPEAT):
            for key, exe in (("py", sys.executable), ("tm", TMPY)):
                dt, rc, so, se = run_once(exe, script, arg)
                if rc != 0:
                    ok = False
                    outputs[key] = "exit %d: %s" % (rc, se.strip().splitlines()[-1:] )
                    break
                outputs[key] = so
                best[key] = min(best[key], dt)
            if not ok:
                break
        if not ok or outputs["py"] != outputs["tm"]:
            out("%-14s %10s %10s %8s   (%s)" % (name, "-", "-", "FAILED",
                                                 "wrong output" if ok else outputs.get("tm", "")))
            failed.append(name)
            continue
        r = best["tm"] / best["py"]
        ratios.append(r)
        out("%-14s %10.3f %10.3f %8.2f" % (name, best["py"], best["tm"], r))
    out()
    if ratios:
        geo = math.exp(sum(math.log(r) for r in ratios) / len(ratios))
        out("geometric mean of tmpy-gil/python3 time over %d benchmarks: %.2f" % (len(ratios), geo))
    if failed:
        out("failed: " + ", ".join(failed))
    res = ROOT / "bench" / "results" / "py_single.txt"
    res.write_text("\n".join(lines) + "\n")
    print("(written to %s)" % res)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
