#!/usr/bin/env python3
"""itertools-heavy loops: python3 (its C itertools) against build/tmpy-gil and
build/tmpy (vm/modules/itertoolsmodule.c), and the same builds of a tree
from before it (BEFORE, default /work/main/build: lib/itertools.py, Python
generators over a C count). One run of each workload, timed inside the
interpreter; every interpreter's checksums must agree.

    python3 bench/py_itertools.py LABEL [OUT] [BEFORE_BUILD_DIR]

appends a section named LABEL to OUT (default bench/results/itertools.txt)
with the machine, the date and its load. `py_itertools.py worker` is the part
that runs in each interpreter."""
import os
import platform
import subprocess
import sys
import time

N = int(os.environ.get("TMPY_BENCH_N", "200000"))


def workloads():
    import operator
    from itertools import (accumulate, chain, combinations, compress, count, cycle, groupby, islice,
                           permutations, product, repeat, starmap, takewhile, tee, zip_longest)

    def product_loop():
        s = 0
        for a, b, c in product(range(60), range(60), range(N // 3600 + 1)):
            s += a ^ b ^ c
        return s

    def permutations_loop():
        return sum(p[0] for p in islice(permutations(range(12), 5), N))

    def combinations_loop():
        return sum(c[-1] for c in islice(combinations(range(40), 4), N))

    def islice_count():
        return sum(islice(count(7, 3), 0, N * 2, 2))

    def chain_zip_longest():
        s = 0
        for a, b in zip_longest(chain(range(N // 2), range(N // 4)), range(N // 2), fillvalue=1):
            s += a * b
        return s

    def accumulate_starmap():
        return sum(accumulate(starmap(operator.mul, zip(range(N), cycle((1, 2, 3))))))

    def groupby_runs():
        return sum(len(list(g)) * k for k, g in groupby(i // 7 for i in range(N)))

    def tee_pairs():
        a, b = tee(range(N))
        next(b)
        return sum(x * y for x, y in zip(a, b))

    def compress_takewhile():
        sel = cycle((1, 0, 1))
        return sum(takewhile(lambda x: x < N * 3, compress(count(), sel)))

    def repeat_loop():
        s = 0
        for x in repeat(3, N):
            s += x
        return s

    return [product_loop, permutations_loop, combinations_loop, islice_count, chain_zip_longest,
            accumulate_starmap, groupby_runs, tee_pairs, compress_takewhile, repeat_loop]


def worker():
    for w in workloads():
        t = time.perf_counter()
        r = w()
        print(w.__name__, "%.4f" % (time.perf_counter() - t), r)


def run(exe):
    out = subprocess.run([exe, os.path.abspath(__file__), "worker"], capture_output=True, text=True, timeout=900)
    if out.returncode != 0:
        raise SystemExit("%s failed: %s" % (exe, out.stderr[-2000:]))
    rows = {}
    for line in out.stdout.splitlines():
        name, secs, result = line.split(" ", 2)
        rows[name] = (float(secs), result)
    return rows


def main():
    label = sys.argv[1]
    path = sys.argv[2] if len(sys.argv) > 2 else "bench/results/itertools.txt"
    before = sys.argv[3] if len(sys.argv) > 3 else "/work/main/build"
    cols = [("python3", sys.executable), ("before-gil", os.path.join(before, "tmpy-gil")),
            ("tmpy-gil", "build/tmpy-gil"), ("before-stm", os.path.join(before, "tmpy")), ("tmpy-stm", "build/tmpy")]
    load0 = os.getloadavg()
    results = [(name, run(exe)) for name, exe in cols]
    ref = results[0][1]
    lines = ["%s: itertools (bench/py_itertools.py), N=%d, one run, seconds inside the interpreter, %s"
             % (label, N, time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())),
             "machine: %s, %d CPUs, %s; load average %.2f %.2f %.2f before, %.2f %.2f %.2f after (shared with other jobs)"
             % ((platform.machine(), os.cpu_count(), platform.platform()) + load0 + os.getloadavg()),
             "before-*: %s (lib/itertools.py: Python generators)" % before,
             "%-22s" % "workload" + "".join("%12s" % n for n, _ in cols) + "%9s%9s" % ("gil/py3", "stm/py3")]
    for name in ref:
        for n, rows in results:
            if rows[name][1] != ref[name][1]:
                raise SystemExit("%s: %s gives %s, python3 %s" % (name, n, rows[name][1], ref[name][1]))
        secs = [rows[name][0] for _, rows in results]
        lines.append("%-22s" % name + "".join("%12.4f" % s for s in secs)
                     + "%9.2f%9.2f" % (secs[2] / secs[0], secs[4] / secs[0]))
    text = "\n".join(lines) + "\n\n"
    with open(path, "a") as f:
        f.write(text)
    print(text, end="")


if __name__ == "__main__":
    worker() if sys.argv[1:] == ["worker"] else main()
