# Independent work done in Python code that C calls (nested eval levels),
# each thread on its own data. Usage: nested_levels.py NAME THREADS TOTAL
# The TOTAL items are shared out among THREADS threads; prints the wall time
# of the threaded part in seconds and checks every thread's result.
#   genexpr   sum() over a generator expression: each item resumes the
#             generator from C (a short level per item)
#   map       sum(map(f, ...)): a short level per call
#   sortkey   sorted(key=f): a short level per key
#   callback  one long loop inside a single callback from C (one level)
import sys
import threading
import time


def square(x):
    return x * x


def genexpr(n):
    return sum(x * x for x in range(n))


def mapped(n):
    return sum(map(square, range(n)))


def sortkey(n):
    return sum(sorted(range(n), key=square)[-3:])


def loop(n):
    x = 0
    for i in range(n):
        x += i * i
    return x


def callback(n):
    return list(map(loop, [n]))[0]


WORKLOADS = {"genexpr": genexpr, "map": mapped, "sortkey": sortkey, "callback": callback}


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
    want = sum(range(per - 3, per)) if name == "sortkey" else sum(i * i for i in range(per))
    if results != [want] * nthreads:
        print("WRONG", results, want, file=sys.stderr)
        sys.exit(1)
    print("%.4f" % elapsed)


main()
