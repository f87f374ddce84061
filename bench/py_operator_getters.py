#!/usr/bin/env python3
"""operator.itemgetter / attrgetter / methodcaller as sort keys: python3 (its C
_operator) against build/tmpy-gil and build/tmpy. One run of each workload,
timed inside the interpreter; the results must agree.

    python3 bench/py_operator_getters.py LABEL [OUT]

appends a section named LABEL (say "before" or "after") to OUT (default
bench/results/operator_getters.txt) with the machine, the date and its load.
`py_operator_getters.py worker` is the part that runs in each interpreter."""
import os
import platform
import subprocess
import sys
import time

N = int(os.environ.get("TMPY_BENCH_N", "200000"))


def workloads():
    import random
    from operator import attrgetter, itemgetter, methodcaller
    rnd = random.Random(5)
    pairs = [(rnd.randrange(1000), rnd.randrange(1000)) for _ in range(N)]

    class Inner:
        __slots__ = ('b',)

        def __init__(self, b):
            self.b = b

    class Outer:
        def __init__(self, b):
            self.a = Inner(b)

    objs = [Outer(rnd.randrange(10 ** 6)) for _ in range(N)]
    words = ['w%07d' % rnd.randrange(10 ** 7) for _ in range(N)]

    def sort_itemgetter_1_0():
        s = sorted(pairs, key=itemgetter(1, 0))
        return s[0], s[-1]

    def sort_itemgetter_1():
        s = sorted(pairs, key=itemgetter(1))
        return s[0][1], s[-1][1]

    def sort_attrgetter_a_b():
        s = sorted(objs, key=attrgetter('a.b'))
        return s[0].a.b, s[-1].a.b

    def sort_methodcaller_upper():
        s = sorted(words, key=methodcaller('upper'))
        return s[0], s[-1]

    return [sort_itemgetter_1_0, sort_itemgetter_1, sort_attrgetter_a_b, sort_methodcaller_upper]


def worker():
    for w in workloads():
        t = time.perf_counter()
        res = w()
        print(w.__name__, '%.4f' % (time.perf_counter() - t), repr(res))


def main():
    label = sys.argv[1] if len(sys.argv) > 1 else "run"
    here = os.path.dirname(os.path.abspath(__file__))
    root = os.path.dirname(here)
    out = sys.argv[2] if len(sys.argv) > 2 else os.path.join(here, "results", "operator_getters.txt")
    exes = [("python3", sys.executable), ("tmpy-gil", os.path.join(root, "build", "tmpy-gil")),
            ("tmpy-stm", os.path.join(root, "build", "tmpy"))]
    times, results = {}, {}
    for name, exe in exes:
        p = subprocess.run([exe, os.path.abspath(__file__), "worker"], capture_output=True, text=True, check=True)
        for line in p.stdout.splitlines():
            w, t, res = line.split(' ', 2)
            times.setdefault(w, {})[name] = float(t)
            results.setdefault(w, set()).add(res)
    for w, rs in results.items():
        if len(rs) != 1:
            sys.exit(f"{w}: results differ: {rs}")
    lines = [f"\n{label}: operator getters as sort keys (bench/py_operator_getters.py), N={N}, one run, "
             f"seconds inside the interpreter, {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}",
             f"machine: {platform.machine()}, {os.cpu_count()} CPUs, {platform.platform()}; "
             f"load average {' '.join('%.2f' % x for x in os.getloadavg())} (shared with other jobs)",
             f"{'workload':26} {'python3':>9} {'tmpy-gil':>9} {'tmpy-stm':>9} {'gil/py':>7} {'stm/py':>7}"]
    for w, t in times.items():
        lines.append(f"{w:26} {t['python3']:9.4f} {t['tmpy-gil']:9.4f} {t['tmpy-stm']:9.4f} "
                     f"{t['tmpy-gil'] / t['python3']:7.2f} {t['tmpy-stm'] / t['python3']:7.2f}")
    text = "\n".join(lines) + "\n"
    print(text)
    with open(out, "a") as f:
        f.write(text)


if __name__ == "__main__":
    if sys.argv[1:] == ["worker"]:
        worker()
    else:
        main()
