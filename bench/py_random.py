#!/usr/bin/env python3
"""random's module functions in loops: python3 against build/tmpy-gil and
build/tmpy, and against an earlier pair of builds (--before DIR: DIR/tmpy-gil
and DIR/tmpy, e.g. copies made before a change). CPU time of each workload
inside the interpreter (time.process_time), best of --runs runs (default 3);
every interpreter must print the same results (the same seeds give CPython's
sequences). The last row is `import random` in a fresh process (CPU time
of the import statement, under -S after `import os` as site would have done, best of 10).

    python3 bench/py_random.py LABEL [--before DIR] [--runs N] [--out FILE]

appends a section named LABEL to FILE (default bench/results/random.txt)
with the machine, the date, the commit and the load. `py_random.py worker`
is the part that runs in each interpreter."""
import os
import sys
import time

N = int(os.environ.get("TMPY_BENCH_N", "1000000"))


def workloads():
    import random

    def random_random():
        random.seed(1)
        r = random.random
        s = 0.0
        for _ in range(N):
            s += r()
        return round(s, 6)

    def getrandbits_32():
        random.seed(1)
        g = random.getrandbits
        s = 0
        for _ in range(N):
            s += g(32)
        return s

    def randint_1_100():
        random.seed(1)
        f = random.randint
        s = 0
        for _ in range(N):
            s += f(1, 100)
        return s

    def randrange_1000():
        random.seed(1)
        f = random.randrange
        s = 0
        for _ in range(N):
            s += f(1000)
        return s

    def choice_list():
        random.seed(1)
        seq = list(range(100))
        f = random.choice
        s = 0
        for _ in range(N):
            s += f(seq)
        return s

    def shuffle_1000():
        random.seed(1)
        x = list(range(1000))
        for _ in range(N // 1000):
            random.shuffle(x)
        return x[:3]

    def gauss():
        random.seed(1)
        f = random.gauss
        s = 0.0
        for _ in range(N):
            s += f(0.0, 1.0)
        return round(s, 6)

    def uniform():
        random.seed(1)
        f = random.uniform
        s = 0.0
        for _ in range(N):
            s += f(-1.0, 1.0)
        return round(s, 6)

    def sample_10_of_1000():
        random.seed(1)
        pop = range(1000)
        s = 0
        for _ in range(N // 20):
            s += sum(random.sample(pop, 10))
        return s

    def seed_str():
        s = 0
        for i in range(N // 100):
            random.seed("seed %d" % i)
            s += random.getrandbits(8)
        return s

    def instance_random():
        r = random.Random(5)
        f = r.random
        s = 0.0
        for _ in range(N):
            s += f()
        return round(s, 6)

    return [random_random, getrandbits_32, randint_1_100, randrange_1000, choice_list, shuffle_1000, gauss,
            uniform, sample_10_of_1000, seed_str, instance_random]


def worker():
    for w in workloads():
        t = time.process_time()
        res = w()
        print(w.__name__, '%.4f' % (time.process_time() - t), repr(res).replace(' ', ''))


def import_cost(exe):
    import subprocess
    code = "import os, time; t = time.process_time(); import random; print(time.process_time() - t)"
    return min(float(subprocess.run([exe, "-S", "-c", code], capture_output=True, text=True, check=True).stdout)
               for _ in range(10))


def main():
    import argparse
    import platform
    import subprocess
    ap = argparse.ArgumentParser()
    ap.add_argument("label")
    ap.add_argument("--before")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--out")
    a = ap.parse_args()
    here = os.path.dirname(os.path.abspath(__file__))
    root = os.path.dirname(here)
    out = a.out or os.path.join(here, "results", "random.txt")
    runs = [("python3", sys.executable)]
    if a.before:
        runs += [("gil-before", os.path.join(a.before, "tmpy-gil")), ("stm-before", os.path.join(a.before, "tmpy"))]
    runs += [("tmpy-gil", os.path.join(root, "build", "tmpy-gil")), ("tmpy-stm", os.path.join(root, "build", "tmpy"))]
    times, results = {}, {}
    for _ in range(a.runs):
        for name, exe in runs:
            p = subprocess.run([exe, os.path.abspath(__file__), "worker"], capture_output=True, text=True, check=True)
            for line in p.stdout.splitlines():
                w, t, res = line.split(' ', 2)
                cell = times.setdefault(w, {})
                cell[name] = min(cell.get(name, float("inf")), float(t))
                results.setdefault(w, {}).setdefault(res, []).append(name)
    for w, rs in results.items():
        if len(rs) != 1:
            sys.exit(f"{w}: results differ: {rs}")
    for name, exe in runs:
        times.setdefault("import_random", {})[name] = import_cost(exe)
    commit = subprocess.run(["git", "-C", root, "log", "-1", "--format=%h %s"], capture_output=True,
                            text=True).stdout.strip()
    cols = [r[0] for r in runs]
    lines = [f"\n{label_line(a.label, a.runs)}, {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}",
             f"machine: {platform.machine()}, {os.cpu_count()} CPUs, {platform.platform()}; "
             f"load average {' '.join('%.2f' % x for x in os.getloadavg())} (shared with other jobs)",
             f"commit: {commit}",
             f"{'workload':20} " + " ".join(f"{c:>10}" for c in cols) + f" {'gil/py3':>8} {'stm/py3':>8}"]
    def ratio(a, b):
        return f"{a / b:8.2f}" if b > 0 else f"{'-':>8}"
    for w, t in times.items():
        lines.append(f"{w:20} " + " ".join(f"{t[c]:10.4f}" for c in cols) +
                     f" {ratio(t['tmpy-gil'], t['python3'])} {ratio(t['tmpy-stm'], t['python3'])}")
    text = "\n".join(lines) + "\n"
    print(text)
    with open(out, "a") as f:
        f.write(text)


def label_line(label, runs):
    return (f"{label}: random (bench/py_random.py), N={N}, CPU seconds inside the interpreter, "
            f"best of {runs} runs")


if __name__ == "__main__":
    if sys.argv[1:2] == ["worker"]:
        worker()
    else:
        main()
