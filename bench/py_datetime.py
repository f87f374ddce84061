#!/usr/bin/env python3
"""datetime workloads: python3 (its C _datetime) and python3 with _datetime
blocked (datetime.py's pure-Python classes) against build/tmpy-gil and
build/tmpy, each also with _datetime blocked (columns *-py: what tmpy ran
before vm/modules/datetime*.c). One run of each workload, timed inside the
interpreter; the results must agree.

    python3 bench/py_datetime.py LABEL [OUT]

appends a section named LABEL to OUT (default bench/results/datetime.txt)
with the machine, the date and its load. `py_datetime.py worker [pure]` is
the part that runs in each interpreter (pure: without _datetime)."""
import os
import subprocess
import sys
import time

N = int(os.environ.get("TMPY_BENCH_N", "100000"))


def workloads():
    from datetime import date, datetime, timedelta, timezone

    def add_delta():
        d = datetime(2000, 1, 1)
        step = timedelta(minutes=17, microseconds=3)
        s = 0
        for _ in range(N):
            d = d + step
            s += d.hour
        return s, str(d)

    def compare_sort():
        base = date(2000, 1, 1)
        ds = [base + timedelta(days=(i * 7919) % 5000) for i in range(N // 4)]
        ds.sort()
        return str(ds[0]), str(ds[-1]), len(set(ds))

    def isoformat_parse():
        d = datetime(2020, 5, 17, 12, 30, 15, 123456, tzinfo=timezone(timedelta(hours=2)))
        n = 0
        for i in range(N // 4):
            s = (d + timedelta(seconds=i)).isoformat()
            n += datetime.fromisoformat(s).second
        return n

    def aware_diff():
        utc = timezone.utc
        est = timezone(timedelta(hours=-5))
        a = datetime(2020, 1, 1, tzinfo=utc)
        total = timedelta(0)
        for i in range(N // 2):
            b = datetime(2020, 1, 1, i % 24, tzinfo=est)
            total += b - a
        return str(total)

    def strftime_fmt():
        d = datetime(2021, 3, 4, 5, 6, 7)
        n = 0
        for i in range(N // 10):
            n += len((d + timedelta(hours=i)).strftime("%Y-%m-%d %H:%M:%S"))
        return n

    return [add_delta, compare_sort, isoformat_parse, aware_diff, strftime_fmt]


def worker(pure):
    if pure:
        sys.modules["_datetime"] = None   # datetime.py's `from _datetime import *` fails: pure classes
    import datetime
    assert hasattr(datetime.date, "__slots__") == pure   # the pure class has __slots__, the C type none
    for f in workloads():
        t0 = time.perf_counter()
        r = f()
        print(f.__name__, f"{time.perf_counter() - t0:.4f}", repr(r))


COLUMNS = [("python3", ["python3"], False), ("py3-py", ["python3"], True),
           ("gil-py", ["build/tmpy-gil"], True), ("tmpy-gil", ["build/tmpy-gil"], False),
           ("stm-py", ["build/tmpy"], True), ("tmpy-stm", ["build/tmpy"], False)]


def main(label, out):
    import platform
    res = {}
    for name, exe, pure in COLUMNS:
        p = subprocess.run(exe + [__file__, "worker"] + (["pure"] if pure else []), capture_output=True, text=True)
        if p.returncode:
            sys.exit(f"{name}: {p.stderr}")
        for line in p.stdout.splitlines():
            w, t, r = line.split(" ", 2)
            res.setdefault(w, {})[name] = (float(t), r)
    lines = [f"{label}: datetime (bench/py_datetime.py), N={N}, one run, seconds inside the interpreter, "
             f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}",
             f"machine: {platform.machine()}, {os.cpu_count()} CPUs, {platform.platform()}; load average "
             f"{' '.join(f'{x:.2f}' for x in os.getloadavg())} (shared with other jobs)",
             "*-py: with _datetime blocked (datetime.py's pure-Python classes; tmpy before the C module)",
             f"{'workload':<18}" + "".join(f"{n:>10}" for n, _, _ in COLUMNS) + "  gil/py3  stm/py3  gil-py/gil"]
    for w, cells in res.items():
        results = {r for _, r in cells.values()}
        assert len(results) == 1, (w, cells)
        t = {n: cells[n][0] for n in cells}
        lines.append(f"{w:<18}" + "".join(f"{t[n]:>10.4f}" for n, _, _ in COLUMNS) +
                     f"{t['tmpy-gil'] / t['python3']:>9.2f}{t['tmpy-stm'] / t['python3']:>9.2f}"
                     f"{t['gil-py'] / t['tmpy-gil']:>12.1f}")
    text = "\n".join(lines) + "\n\n"
    print(text, end="")
    with open(out, "a") as f:
        f.write(text)


if __name__ == "__main__":
    if sys.argv[1] == "worker":
        worker(len(sys.argv) > 2 and sys.argv[2] == "pure")
    else:
        main(sys.argv[1], sys.argv[2] if len(sys.argv) > 2 else "bench/results/datetime.txt")
