#!/usr/bin/env python3
"""tmpy-gil's single-thread speed, one build against another: the ten
bench/py single-thread benchmarks (bench/py_single.py's list and sizes)
under BEFORE and AFTER, alternating, best of REPEAT runs each (CPU time of
the child); prints each AFTER/BEFORE time ratio and their geometric mean. Used to check that a
change to the GIL build (e.g. the HTM elision's yield points, with --tm=htm
off) costs nothing on one thread.

usage: bench/gil_before_after.py BEFORE AFTER [RESULT_FILE] [-- AFTER_OPTIONS...]
TMPY_BENCH_REPEAT (default 5) sets the runs per build."""
import math
import os
import pathlib
import resource
import subprocess
import sys
import time

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))
from py_single import BENCHES  # noqa: E402

REPEAT = int(os.environ.get("TMPY_BENCH_REPEAT", "5"))


def once(cmd):
    """The child's CPU time (user + system): on a shared machine it varies
    less than the wall time."""
    r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    p = subprocess.run(cmd, capture_output=True, text=True)
    r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (r1.ru_utime - r0.ru_utime) + (r1.ru_stime - r0.ru_stime), p.returncode, p.stdout


def main(argv):
    opts = []
    if "--" in argv:
        opts = argv[argv.index("--") + 1:]
        argv = argv[:argv.index("--")]
    before, after = argv[1], argv[2]
    result = argv[3] if len(argv) > 3 else None
    lines = []

    def out(s=""):
        print(s, flush=True)
        lines.append(s)

    out("== gil_before_after: tmpy-gil AFTER vs BEFORE, one thread ==")
    out("date:    " + time.strftime("%Y-%m-%d %H:%M:%S UTC", time.gmtime()))
    out("before:  " + before)
    out("after:   " + " ".join([after, *opts]))
    out("repeat:  best of %d, alternating; CPU seconds (user + system)" % REPEAT)
    out()
    out("%-14s %10s %10s %8s" % ("benchmark", "before s", "after s", "ratio"))
    ratios = []
    for name, arg in BENCHES.items():
        script = str(ROOT / "bench" / "py" / (name + ".py"))
        best = {"b": math.inf, "a": math.inf}
        outs = {}
        for _ in range(REPEAT):
            for key, cmd in (("b", [before, script, str(arg)]), ("a", [after, *opts, script, str(arg)])):
                dt, rc, so = once(cmd)
                if rc != 0:
                    out("%-14s FAILED (%s exit %d)" % (name, key, rc))
                    return 1
                outs[key] = so
                best[key] = min(best[key], dt)
        if outs["a"] != outs["b"]:
            out("%-14s FAILED (outputs differ)" % name)
            return 1
        r = best["a"] / best["b"]
        ratios.append(r)
        out("%-14s %10.3f %10.3f %8.3f" % (name, best["b"], best["a"], r))
    geo = math.exp(sum(math.log(r) for r in ratios) / len(ratios))
    out()
    out("geometric mean of after/before time: %.3f" % geo)
    if result:
        pathlib.Path(result).write_text("\n".join(lines) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
