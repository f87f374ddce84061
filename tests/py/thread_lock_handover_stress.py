# threading.Lock under contention (issue 20): a release lets the lock go and
# wakes one waiter, and hands it over (reserved for the woken thread) once a
# woken waiter found it taken again. Stresses the paths where that can go
# wrong: waiters that time out or give up while a release wakes or reserves
# the lock for them (a lost wake-up or a lock left reserved hangs the others),
# a lock released by another thread than the one that took it, and a bounded
# queue.Queue whose producers and consumers both wait (every item delivered
# exactly once). Every wait is bounded: a hang prints HUNG.
import os
import queue
import threading
import time

from support.threads import start_join

SCALE = int(os.environ.get("TMPY_THREAD_SCALE", "1"))


class Counter:
    def __init__(self):
        self.value = 0
        self.timeouts = 0


def counters(n_threads, iters):
    """Increments under one lock; a third of the threads use short timeouts
    (retrying), a third non-blocking tries, so waiters leave the wait set
    while releases notify and reserve."""
    lock, c = threading.Lock(), Counter()

    def work(k):
        for i in range(iters):
            if k % 3 == 0:
                lock.acquire()
            elif k % 3 == 1:
                while not lock.acquire(timeout=0.0001):
                    pass
            else:
                while not lock.acquire(False):
                    pass
            v = c.value
            for _ in range(i % 4):   # yield points inside the section
                pass
            c.value = v + 1
            lock.release()
    start_join([threading.Thread(target=work, args=(k,)) for k in range(n_threads)], timeout=60.0)
    free = lock.acquire(False)
    print("counters", n_threads, c.value == n_threads * iters, "free at the end:", free)


def cross_release(rounds):
    """One thread takes the lock, another releases it (allowed for Lock), while
    a third waits for it: the waiter must get it every round."""
    lock = threading.Lock()
    taken, got = threading.Event(), []

    def taker():
        for _ in range(rounds):
            lock.acquire()
            taken.set()
            while taken.is_set():
                time.sleep(0)

    def releaser():
        for _ in range(rounds):
            while not taken.is_set():
                time.sleep(0)
            lock.release()
            taken.clear()

    def waiter():
        for _ in range(rounds):
            with lock:
                got.append(1)
    start_join([threading.Thread(target=f) for f in (taker, releaser, waiter)], timeout=60.0)
    print("cross release", len(got) == rounds, "locked at the end:", lock.locked())


def pipeline(producers, consumers, per_producer, maxsize):
    """Distinct items through a small bounded queue: each arrives once."""
    q = queue.Queue(maxsize=maxsize)
    seen = [[] for _ in range(consumers)]

    def produce(k):
        for i in range(per_producer):
            q.put(k * per_producer + i)

    def consume(k):
        out = seen[k]
        while (x := q.get()) is not None:
            out.append(x)
            q.task_done()
        q.task_done()
    ps = [threading.Thread(target=produce, args=(k,)) for k in range(producers)]
    cs = [threading.Thread(target=consume, args=(k,)) for k in range(consumers)]
    for t in cs:
        t.daemon = True
        t.start()
    start_join(ps, timeout=60.0)
    for _ in cs:
        q.put(None)
    for t in cs:
        t.join(60.0)
    q.join()
    items = sorted(x for s in seen for x in s)
    print("pipeline", producers, consumers, maxsize, items == list(range(producers * per_producer)),
          "hung consumers:", sum(t.is_alive() for t in cs))


for n in (2, 4, 8):
    counters(n, 200 * SCALE)
cross_release(50 * SCALE)
for producers, consumers, maxsize in ((1, 1, 1), (3, 2, 2), (2, 5, 4)):
    pipeline(producers, consumers, 300 * SCALE, maxsize)
print("ok")
