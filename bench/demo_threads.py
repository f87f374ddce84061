# The threaded Python program `make demo` runs under build/tmpy-gil and
# python3: worker threads take jobs from a queue, compute independently, and
# merge their results under a lock; a Condition-guarded pipeline and a
# Barrier check that nothing is lost. Under a GIL the threads take turns;
# build/tmpy (STM) runs them in parallel.
import sys
import threading
import queue
import time

NTHREADS = int(sys.argv[1]) if len(sys.argv) > 1 else 4
JOBS = 64
SPAN = 4000


def primes_in(lo, hi):
    count = 0
    for n in range(max(lo, 2), hi):
        d = 2
        while d * d <= n:
            if n % d == 0:
                break
            d += 1
        else:
            count += 1
    return count


t0 = time.perf_counter()
jobs = queue.Queue()
for j in range(JOBS):
    jobs.put((j * SPAN, (j + 1) * SPAN))
totals = {"primes": 0, "jobs": 0}
totals_lock = threading.Lock()
per_thread = {}
start_line = threading.Barrier(NTHREADS)


def worker():
    start_line.wait()
    mine = 0
    while True:
        try:
            lo, hi = jobs.get_nowait()
        except queue.Empty:
            break
        c = primes_in(lo, hi)
        with totals_lock:
            totals["primes"] += c
            totals["jobs"] += 1
        mine += 1
    per_thread[threading.current_thread().name] = mine


threads = [threading.Thread(target=worker, name=f"worker-{i}") for i in range(NTHREADS)]
for t in threads:
    t.start()
for t in threads:
    t.join()
print(f"{NTHREADS} threads: {totals['jobs']} jobs, {totals['primes']} primes below {JOBS * SPAN}")
assert sum(per_thread.values()) == JOBS

# A bounded pipeline: producer -> squarer -> summer, through Conditions.
class Channel:
    def __init__(self, size):
        self.items, self.size = [], size
        self.cond = threading.Condition()

    def put(self, x):
        with self.cond:
            self.cond.wait_for(lambda: len(self.items) < self.size)
            self.items.append(x)
            self.cond.notify_all()

    def get(self):
        with self.cond:
            self.cond.wait_for(lambda: self.items)
            x = self.items.pop(0)
            self.cond.notify_all()
            return x


a, b = Channel(8), Channel(8)
N = 20000
result = []


def produce():
    for i in range(N):
        a.put(i)
    a.put(None)


def square():
    while (x := a.get()) is not None:
        b.put(x * x)
    b.put(None)


def total():
    s = 0
    while (x := b.get()) is not None:
        s += x
    result.append(s)


stages = [threading.Thread(target=f) for f in (produce, square, total)]
for t in stages:
    t.start()
for t in stages:
    t.join()
print(f"pipeline of 3 threads: sum of squares below {N} = {result[0]} ({result[0] == sum(i * i for i in range(N))})")
print(f"threaded part: {time.perf_counter() - t0:.2f} s", file=sys.stderr)
