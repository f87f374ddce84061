"""The import system's costs (issue 22): start-up CPU time, the first import
of importlib (which loads CPython's importlib._bootstrap and
_bootstrap_external), and the common import of a module already imported
(`import os` in a loop, and importlib.import_module). Runs each given
interpreter; CPU time of a run is the child's user + sys (getrusage), the
median of N runs.

Usage: python3 bench/import_system.py [--runs N] [--loops N] EXE [EXE ...]
"""
import argparse
import resource
import statistics
import subprocess
import time

LOOP = """
import time, importlib
t = time.perf_counter()
for _ in range({n}):
    import os
a = time.perf_counter() - t
t = time.perf_counter()
for _ in range({n}):
    from os import path
b = time.perf_counter() - t
im = importlib.import_module
t = time.perf_counter()
for _ in range({n}):
    im("os")
c = time.perf_counter() - t
print(f"{{a / {n} * 1e9:.1f}} {{b / {n} * 1e9:.1f}} {{c / {n} * 1e9:.1f}}")
"""


def cpu_of(cmd, runs):
    times = []
    for _ in range(runs):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        if subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL).returncode:
            return None, None
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        times.append((after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime) * 1e3)
    return statistics.median(times), min(times)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=30)
    ap.add_argument("--loops", type=int, default=200000)
    ap.add_argument("exes", nargs="+")
    args = ap.parse_args()
    print(f"date: {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}")
    for exe in args.exes:
        for label, code in (("-c pass", "pass"), ("-S -c pass", None), ("import importlib", "import importlib"),
                            ("import importlib.util", "import importlib.util")):
            cmd = [exe, "-S", "-c", "pass"] if code is None else [exe, "-c", code]
            med, lo = cpu_of(cmd, args.runs)
            if med is None:
                print(f"{exe:40s} {label:24s} fails")
                continue
            print(f"{exe:40s} {label:24s} CPU median {med:7.2f} ms  min {lo:7.2f} ms")
        out = subprocess.run([exe, "-c", LOOP.format(n=args.loops)], capture_output=True, text=True)
        if out.returncode:
            print(f"{exe:40s} loop fails: {out.stderr.strip().splitlines()[-1]}")
            continue
        a, b, c = out.stdout.split()
        print(f"{exe:40s} already imported: `import os` {a} ns, `from os import path` {b} ns, "
              f"import_module('os') {c} ns")


if __name__ == "__main__":
    main()
