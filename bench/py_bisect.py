#!/usr/bin/env python3
"""bisect.bisect_left / insort / key= speed: python3 (its C _bisect) against
build/tmpy-gil and build/tmpy. One run of each workload, CPU time
(time.process_time) inside the interpreter; the results must agree.

    python3 bench/py_bisect.py LABEL [OUT]

appends a section named LABEL (say "before" or "after") to OUT (default
bench/results/bisect.txt) with the machine, the date, the commit and its
load; TMPY_BENCH_BUILD=DIR times the builds in DIR (another checkout's
build/) instead of this tree's; TMPY_BENCH_BLOCK_BISECT=1 blocks _bisect in
the tmpy runs (bisect.py's pure-Python functions, tmpy before _bisect). `py_bisect.py worker` is the part that runs in each interpreter."""
import os
import platform
import subprocess
import sys
import time

N = int(os.environ.get("TMPY_BENCH_N", "200000"))


def workloads():
    if os.environ.get("TMPY_BENCH_BLOCK_BISECT") == "1":
        sys.modules["_bisect"] = None   # bisect.py's pure-Python functions, as before _bisect existed
    import bisect
    import random
    rnd = random.Random(7)
    data = sorted(rnd.randrange(10 ** 9) for _ in range(N))
    probes = [rnd.randrange(10 ** 9) for _ in range(N * 5)]
    inserts = [rnd.randrange(10 ** 9) for _ in range(N // 4)]
    pairs = [(x, -x) for x in data]

    def bisect_left_ints():
        bl = bisect.bisect_left
        s = 0
        for x in probes:
            s += bl(data, x)
        return s

    def bisect_right_lo_hi():
        br = bisect.bisect_right
        s = 0
        half = len(data) // 2
        for x in probes:
            s += br(data, x, 0, half)
        return s

    def insort_ints():
        a = []
        ins = bisect.insort
        for x in inserts:
            ins(a, x)
        return len(a), a[0], a[-1], a[len(a) // 2]

    def bisect_left_key():
        bl = bisect.bisect_left
        key = lambda p: p[0]
        s = 0
        for x in probes[:N]:
            s += bl(pairs, x, key=key)
        return s

    return [bisect_left_ints, bisect_right_lo_hi, insort_ints, bisect_left_key]


def worker():
    for w in workloads():
        t = time.process_time()
        res = w()
        print(w.__name__, '%.4f' % (time.process_time() - t), repr(res).replace(' ', ''))


def main():
    label = sys.argv[1] if len(sys.argv) > 1 else "run"
    here = os.path.dirname(os.path.abspath(__file__))
    root = os.path.dirname(here)
    out = sys.argv[2] if len(sys.argv) > 2 else os.path.join(here, "results", "bisect.txt")
    # TMPY_BENCH_BUILD=DIR times the tmpy builds of another tree (a "before" checkout)
    build = os.environ.get("TMPY_BENCH_BUILD", os.path.join(root, "build"))
    exes = [("python3", sys.executable), ("tmpy-gil", os.path.join(build, "tmpy-gil")),
            ("tmpy-stm", os.path.join(build, "tmpy"))]
    times, results = {}, {}
    for name, exe in exes:
        env = dict(os.environ)
        if name == "python3":   # the reference keeps its C _bisect
            env.pop("TMPY_BENCH_BLOCK_BISECT", None)
        p = subprocess.run([exe, os.path.abspath(__file__), "worker"], capture_output=True, text=True, check=True,
                           env=env)
        for line in p.stdout.splitlines():
            w, t, res = line.split(' ', 2)
            times.setdefault(w, {})[name] = float(t)
            results.setdefault(w, set()).add(res)
    for w, rs in results.items():
        if len(rs) != 1:
            sys.exit(f"{w}: results differ: {rs}")
    commit = subprocess.run(["git", "-C", os.path.dirname(build), "rev-parse", "--short", "HEAD"],
                            capture_output=True, text=True).stdout.strip()
    lines = [f"\n{label}: bisect (bench/py_bisect.py), N={N} ({5 * N} probes, {N // 4} inserts), one run, "
             f"CPU seconds inside the interpreter, {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, "
             f"commit {commit}",
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
