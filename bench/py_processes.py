"""Processes against threads and one process: a CPU-bound function over a list, run serially, by a
multiprocessing.Pool (fork) of 2 workers, by a ProcessPoolExecutor of 2 and by 2 threads, under
python3, tmpy-gil and tmpy (STM). Wall-clock seconds, best of REPEAT; the machine's 2 cores are
shared, so the numbers say more about overheads than about speedups. Also the cost of one
os.fork() + waitpid of a child that exits at once (tmpy copies its object space for the child).

    python3 bench/py_processes.py [--out bench/results/py_processes.txt]
"""
import argparse
import os
import platform
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
WORK = r'''
import sys, time, threading
import multiprocessing as mp
from concurrent.futures import ProcessPoolExecutor

def work(n):
    s = 0
    for i in range(n):
        s += i * i % 7
    return s

ITEMS = [400000] * 16
REPEAT = 3

def best(fn):
    b = None
    for _ in range(REPEAT):
        t = time.perf_counter()
        r = fn()
        t = time.perf_counter() - t
        b = t if b is None else min(b, t)
    return b, r

def serial():
    return sum(map(work, ITEMS))

def pool():
    with mp.get_context("fork").Pool(2) as p:
        return sum(p.map(work, ITEMS))

def executor():
    with ProcessPoolExecutor(2, mp_context=mp.get_context("fork")) as ex:
        return sum(ex.map(work, ITEMS))

def threads():
    out = []
    def run(part):
        out.append(sum(map(work, part)))
    ts = [threading.Thread(target=run, args=(ITEMS[k::2],)) for k in range(2)]
    for t in ts: t.start()
    for t in ts: t.join()
    return sum(out)

def fork_wait():
    import os
    t = time.perf_counter()
    for _ in range(20):
        pid = os.fork()
        if pid == 0:
            os._exit(0)
        os.waitpid(pid, 0)
    return (time.perf_counter() - t) / 20

if __name__ == "__main__":
    fork_ms = fork_wait() * 1000
    results = {name: best(fn) for name, fn in (("serial", serial), ("pool", pool), ("executor", executor), ("threads", threads))}
    assert len({r for _, r in results.values()}) == 1
    print(" ".join("%s=%.3f" % (k, v[0]) for k, v in results.items()), "fork+waitpid=%.1fms" % fork_ms)
'''


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out")
    args = ap.parse_args()
    lines = ["== py_processes ==", "date:     " + time.strftime("%Y-%m-%d %H:%M:%S UTC", time.gmtime()),
             "kernel:   " + platform.release(), "cpus:     %d (shared with other work)" % os.cpu_count(),
             "16 calls of work(400000), 2 workers, best of 3, seconds"]
    for exe in (sys.executable, os.path.join(ROOT, "build", "tmpy-gil"), os.path.join(ROOT, "build", "tmpy")):
        p = subprocess.run([exe, "-c", WORK], capture_output=True, text=True, timeout=900)
        lines.append("%-10s %s" % (os.path.basename(exe), p.stdout.strip() or p.stderr.strip()[-300:]))
    text = "\n".join(lines) + "\n"
    print(text, end="")
    if args.out:
        with open(args.out, "w") as f:
            f.write(text)


if __name__ == "__main__":
    main()
