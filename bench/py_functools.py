#!/usr/bin/env python3
"""functools.partial calls, lru_cache hits, reduce and cmp_to_key: python3
(its C _functools) against build/tmpy-gil and build/tmpy, each tmpy build
also with _functools blocked (functools.py's pure-Python fallbacks, what
tmpy ran before the C module: columns *-py). One run of each workload,
timed inside the interpreter; the results must agree.

    python3 bench/py_functools.py LABEL [OUT]

appends a section named LABEL to OUT (default bench/results/functools.txt)
with the machine, the date and its load. `py_functools.py worker [pure]` is
the part that runs in each interpreter (pure: without _functools).

    python3 bench/py_functools.py conflicts [OUT]

appends build/tmpy's transaction statistics (TMPY_STATS=1) for two threads
hitting one lru_cache, unbounded and bounded (`conflicts_worker MAXSIZE`):
the unbounded cache's hits write only the thread's own count stripe."""
import os
import sys
import time

N = int(os.environ.get("TMPY_BENCH_N", "200000"))


def workloads():
    import threading
    from functools import cmp_to_key, lru_cache, partial, reduce
    from operator import add

    def f(a, b, c=0):
        return a + b + c

    def partial_call():
        p = partial(f, 1)
        s = 0
        for i in range(N):
            s += p(i)
        return s

    def partial_call_kw():
        p = partial(f, 1, c=2)
        s = 0
        for i in range(N):
            s += p(i)
        return s

    def partial_nested():
        p = partial(partial(f, 1), c=3)
        s = 0
        for i in range(N):
            s += p(i)
        return s

    def lru_hit_unbounded():
        @lru_cache(maxsize=None)
        def sq(x):
            return x * x
        s = 0
        for i in range(N):
            s += sq(i & 255)
        return s, sq.cache_info().hits

    def lru_hit_bounded():
        @lru_cache(maxsize=512)
        def sq(x):
            return x * x
        s = 0
        for i in range(N):
            s += sq(i & 255)
        return s, sq.cache_info().hits

    def lru_hit_two_args():
        @lru_cache(maxsize=None)
        def mul(x, y):
            return x * y
        s = 0
        for i in range(N):
            s += mul(i & 15, i & 7)
        return s, mul.cache_info().hits

    def lru_hit_unbounded_2_threads():
        @lru_cache(maxsize=None)
        def sq(x):
            return x * x
        out = [0, 0]

        def work(t):
            s = 0
            for i in range(N // 2):
                s += sq(i & 255)
            out[t] = s
        ts = [threading.Thread(target=work, args=(t,)) for t in range(2)]
        for t in ts:
            t.start()
        for t in ts:
            t.join()
        info = sq.cache_info()
        return sum(out), info.hits + info.misses

    def reduce_add():
        return reduce(add, range(N))

    def sort_cmp_to_key():
        data = [(i * 7919) % 10007 for i in range(N // 4)]
        s = sorted(data, key=cmp_to_key(lambda a, b: (a > b) - (a < b)))
        return s[0], s[-1]

    return [partial_call, partial_call_kw, partial_nested, lru_hit_unbounded, lru_hit_bounded,
            lru_hit_two_args, lru_hit_unbounded_2_threads, reduce_add, sort_cmp_to_key]


def worker():
    if sys.argv[2:] == ["pure"]:
        assert "functools" not in sys.modules
        sys.modules["_functools"] = None   # functools.py takes its Python fallbacks
    for w in workloads():
        t = time.perf_counter()
        res = w()
        print(w.__name__, '%.4f' % (time.perf_counter() - t), repr(res).replace(' ', ''))


def main():
    import platform   # (here: subprocess imports functools, which the pure worker must import itself)
    import subprocess
    label = sys.argv[1] if len(sys.argv) > 1 else "run"
    here = os.path.dirname(os.path.abspath(__file__))
    root = os.path.dirname(here)
    out = sys.argv[2] if len(sys.argv) > 2 else os.path.join(here, "results", "functools.txt")
    gil, stm = os.path.join(root, "build", "tmpy-gil"), os.path.join(root, "build", "tmpy")
    runs = [("python3", sys.executable, []), ("gil-py", gil, ["pure"]), ("tmpy-gil", gil, []),
            ("stm-py", stm, ["pure"]), ("tmpy-stm", stm, [])]
    times, results = {}, {}
    for name, exe, extra in runs:
        p = subprocess.run([exe, os.path.abspath(__file__), "worker", *extra], capture_output=True, text=True,
                           check=True)
        for line in p.stdout.splitlines():
            w, t, res = line.split(' ', 2)
            times.setdefault(w, {})[name] = float(t)
            results.setdefault(w, set()).add(res)
    for w, rs in results.items():
        if len(rs) != 1:
            sys.exit(f"{w}: results differ: {rs}")
    cols = [r[0] for r in runs]
    lines = [f"\n{label}: functools (bench/py_functools.py), N={N}, one run, seconds inside the interpreter, "
             f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}",
             f"machine: {platform.machine()}, {os.cpu_count()} CPUs, {platform.platform()}; "
             f"load average {' '.join('%.2f' % x for x in os.getloadavg())} (shared with other jobs)",
             "*-py: that build with _functools blocked (functools.py's pure-Python fallbacks: tmpy before "
             "the C module)",
             f"{'workload':28} " + " ".join(f"{c:>9}" for c in cols) + f" {'gil/py3':>8} {'stm/py3':>8}"]
    for w, t in times.items():
        lines.append(f"{w:28} " + " ".join(f"{t[c]:9.4f}" for c in cols) +
                     f" {t['tmpy-gil'] / t['python3']:8.2f} {t['tmpy-stm'] / t['python3']:8.2f}")
    text = "\n".join(lines) + "\n"
    print(text)
    with open(out, "a") as f:
        f.write(text)


def conflicts_worker(maxsize):
    import threading
    from functools import lru_cache

    @lru_cache(maxsize=maxsize)
    def sq(x):
        return x * x
    for i in range(256):
        sq(i)

    def work():
        for i in range(N // 2):
            sq(i & 255)
    ts = [threading.Thread(target=work) for _ in range(2)]
    for t in ts:
        t.start()
    for t in ts:
        t.join()
    print(sq.cache_info())


def conflicts():
    import subprocess
    here = os.path.dirname(os.path.abspath(__file__))
    out = sys.argv[2] if len(sys.argv) > 2 else os.path.join(here, "results", "functools.txt")
    stm = os.path.join(os.path.dirname(here), "build", "tmpy")
    lines = [f"\nSTM conflicts: 2 threads, {N // 2} hits each on one lru_cache of 256 keys, build/tmpy "
             f"TMPY_SEGMENTS=4 TMPY_STATS=1, {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}"]
    for maxsize in ("None", "512"):
        p = subprocess.run([stm, os.path.abspath(__file__), "conflicts_worker", maxsize], capture_output=True,
                           text=True, check=True, env=dict(os.environ, TMPY_STATS="1", TMPY_SEGMENTS="4"))
        stats = [line for line in p.stderr.splitlines() if "aborts (" in line or "lost in aborted" in line]
        lines.append(f"maxsize={maxsize}: {p.stdout.strip()}")
        lines += ["  " + line for line in stats]
    text = "\n".join(lines) + "\n"
    print(text)
    with open(out, "a") as f:
        f.write(text)


if __name__ == "__main__":
    if sys.argv[1:2] == ["worker"]:
        worker()
    elif sys.argv[1:2] == ["conflicts_worker"]:
        conflicts_worker(None if sys.argv[2] == "None" else int(sys.argv[2]))
    elif sys.argv[1:2] == ["conflicts"]:
        conflicts()
    else:
        main()
