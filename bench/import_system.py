"""The import system's costs (issue 22): start-up CPU time, the first import
of importlib (which loads CPython's importlib._bootstrap and
_bootstrap_external), and the common import of a module already imported
(`import os` in a loop, and importlib.import_module: CPU time per import,
the best of 5 processes x 7 loops). CPU time of a run is the child's user +
sys (getrusage), the median of N runs; the interpreters' runs alternate, so
a change of the machine's load hits them alike.

Usage: python3 bench/import_system.py [--runs N] [--loops N] EXE [EXE ...]
"""
import argparse
import resource
import statistics
import subprocess
import time

LOOP = """
import time, importlib
def best(f):
    out = []
    for _ in range(7):
        t = time.process_time()
        f()
        out.append(time.process_time() - t)
    return min(out) / {n} * 1e9
def stmt():
    for _ in range({n}):
        import os
def from_stmt():
    for _ in range({n}):
        from os import path
def im(im=importlib.import_module):
    for _ in range({n}):
        im("os")
print(f"{{best(stmt):.1f}} {{best(from_stmt):.1f}} {{best(im):.1f}}")
"""


def cpu_once(cmd):
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    if subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL).returncode:
        return None
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime) * 1e3


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=30)
    ap.add_argument("--loops", type=int, default=200000)
    ap.add_argument("exes", nargs="+")
    args = ap.parse_args()
    print(f"date: {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}; the interpreters' runs interleaved")
    for label, code in (("-c pass", "pass"), ("-S -c pass", None), ("import importlib", "import importlib"),
                        ("import importlib.util", "import importlib.util")):
        times = {exe: [] for exe in args.exes}
        for _ in range(args.runs):
            for exe in args.exes:
                cmd = [exe, "-S", "-c", "pass"] if code is None else [exe, "-c", code]
                times[exe].append(cpu_once(cmd))
        for exe in args.exes:
            t = times[exe]
            if None in t:
                print(f"{exe:40s} {label:24s} fails")
            else:
                print(f"{exe:40s} {label:24s} CPU median {statistics.median(t):7.2f} ms  min {min(t):7.2f} ms")
    loops = {exe: [] for exe in args.exes}
    for _ in range(5):
        for exe in args.exes:
            out = subprocess.run([exe, "-c", LOOP.format(n=args.loops)], capture_output=True, text=True)
            if out.returncode:
                loops[exe] = None
            elif loops[exe] is not None:
                loops[exe].append([float(x) for x in out.stdout.split()])
    for exe in args.exes:
        if loops[exe] is None:
            print(f"{exe:40s} loop fails")
            continue
        a, b, c = (min(r[i] for r in loops[exe]) for i in range(3))
        print(f"{exe:40s} already imported (best of 5 processes x 7 loops): `import os` {a:.1f} ns, "
              f"`from os import path` {b:.1f} ns, import_module('os') {c:.1f} ns")


if __name__ == "__main__":
    main()
