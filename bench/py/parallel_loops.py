# Embarrassingly parallel loops, each thread on its own data: the While and
# Iterator micro-benchmarks of paper 001 (Figure 4) and the countdown of
# paper 004 (Listing 6). Usage: parallel_loops.py NAME THREADS TOTAL
# The TOTAL iterations are shared out among THREADS threads; prints the wall
# time of the threaded part in seconds and checks every thread's result.
import sys
import threading
import time


def while_loop(n):
    x = 0
    i = 1
    while i <= n:
        x += i
        i += 1
    return x


def iterator_loop(n):
    x = 0
    for i in range(1, n + 1):
        x += i
    return x


def countdown(n):
    i = n
    while i:
        i -= 1
    return i


WORKLOADS = {"while": while_loop, "iterator": iterator_loop, "countdown": countdown}


def main():
    name, nthreads, total = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    work = WORKLOADS[name]
    per = total // nthreads
    results = [None] * nthreads

    def run(k):
        results[k] = work(per)

    threads = [threading.Thread(target=run, args=(k,)) for k in range(nthreads)]
    t0 = time.perf_counter()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    elapsed = time.perf_counter() - t0
    want = 0 if name == "countdown" else per * (per + 1) // 2
    if results != [want] * nthreads:
        print("WRONG", results, file=sys.stderr)
        sys.exit(1)
    print("%.4f" % elapsed)


main()
