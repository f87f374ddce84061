"""Workloads whose threads share data (bench/py_contention.py runs them).

  contention.py WORKLOAD THREADS TOTAL

dict:      each thread inserts its own TOTAL/THREADS keys into one shared dict
counters:  each thread bumps 16 shared counters under one threading.Lock
mixed:     dict inserts and the 16 locked counters (issue 20's example)
loops:     independent loops (no shared data: the parallel case)
half:      half the threads bump one shared counter list, half run loops

Prints the check value and the wall time in seconds on the last line."""
import sys
import threading
import time


def dict_worker(d, base, n):
    for i in range(n):
        d[base + i] = i


def counters_worker(counts, lock, n):
    for i in range(n):
        with lock:
            counts[i & 15] += 1


def mixed_worker(d, counts, lock, base, n):
    for i in range(n):
        d[base + i] = i
        with lock:
            counts[i & 15] += 1


def loops_worker(out, k, n):
    s = 0
    for i in range(n):
        s += i & 7
    out[k] = s


def shared_list_worker(counts, n):
    for i in range(n):
        counts[i & 15] += 1


def main():
    name, threads, total = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    n = total // threads
    d = {}
    counts = [0] * 16
    lock = threading.Lock()
    out = [0] * threads
    ts = []
    for k in range(threads):
        if name == "dict":
            t = threading.Thread(target=dict_worker, args=(d, k * n, n))
        elif name == "counters":
            t = threading.Thread(target=counters_worker, args=(counts, lock, n))
        elif name == "mixed":
            t = threading.Thread(target=mixed_worker, args=(d, counts, lock, k * n, n))
        elif name == "loops":
            t = threading.Thread(target=loops_worker, args=(out, k, n))
        elif name == "half":
            if k % 2:
                t = threading.Thread(target=loops_worker, args=(out, k, n))
            else:
                t = threading.Thread(target=shared_list_worker, args=(counts, n))
        else:
            raise SystemExit("unknown workload " + name)
        ts.append(t)
    t0 = time.time()
    for t in ts:
        t.start()
    for t in ts:
        t.join()
    dt = time.time() - t0
    if name in ("dict", "mixed"):
        assert len(d) == n * threads, len(d)
    if name in ("counters", "mixed"):
        assert sum(counts) == n * threads, sum(counts)
    print(len(d), sum(counts), sum(out), f"{dt:.3f}")


main()
