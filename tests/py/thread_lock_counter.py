# Exact counter totals with 8 threads under threading.Lock and RLock,
# with explicit acquire/release, with `with lock:`, and RLock re-entry.
# Every critical section has a switch point between its read and its
# write, so the locks are contended and a lock that does not exclude loses
# updates.
import os
import sys
import threading

from support.threads import run_threads as run_all, switch_point

N_THREADS = 8
N_ITERS = 2000 * int(os.environ.get("TMPY_THREAD_SCALE", "1"))
sys.setswitchinterval(1e-5)  # many switches, many of them inside a critical section


class Counter:
    def __init__(self):
        self.value = 0


def run_threads(target, *args):
    return all(not t.is_alive() for t in run_all(target, [args] * N_THREADS))


def with_lock(lock, c):
    for _ in range(N_ITERS):
        with lock:
            v = c.value
            switch_point()
            c.value = v + 1


def explicit(lock, c):
    for _ in range(N_ITERS):
        lock.acquire()
        try:
            v = c.value
            switch_point()
            c.value = v + 1
        finally:
            lock.release()


def nested_rlock(lock, c):
    for _ in range(N_ITERS // 4):
        with lock:
            with lock:
                lock.acquire()
                v = c.value
                switch_point()
                c.value = v + 1
                lock.release()
            c.value += 1
        with lock:
            c.value += 2


def blocking_false(lock, c):
    # spin with non-blocking acquire; must still count exactly
    done = 0
    while done < N_ITERS // 4:
        if lock.acquire(False):
            v = c.value
            switch_point()
            c.value = v + 1
            done += 1
            lock.release()


def timeout_acquire(lock, c):
    for _ in range(N_ITERS // 4):
        ok = lock.acquire(timeout=5)
        if ok:
            v = c.value
            switch_point()
            c.value = v + 1
            lock.release()


def two_counters(lock, c, d):
    for i in range(N_ITERS):
        with lock:
            c.value += i
            switch_point()
            d.value -= i


for name, factory in (("Lock", threading.Lock), ("RLock", threading.RLock)):
    for fn in (with_lock, explicit, blocking_false, timeout_acquire):
        c = Counter()
        lock = factory()
        ok = run_threads(fn, lock, c)
        per = N_ITERS if fn in (with_lock, explicit) else N_ITERS // 4
        print(name, fn.__name__, c.value, c.value == N_THREADS * per, ok)
    c = Counter()
    d = Counter()
    lock = factory()
    run_threads(two_counters, lock, c, d)
    print(name, "two_counters", c.value == N_THREADS * sum(range(N_ITERS)), c.value + d.value)

c = Counter()
r = threading.RLock()
run_threads(nested_rlock, r, c)
print("RLock nested", c.value, c.value == N_THREADS * (N_ITERS // 4) * 4)

# state after all threads are done
lk = threading.Lock()
print("locked", lk.locked())
with lk:
    print("locked in with", lk.locked(), lk.acquire(False))
print("locked after", lk.locked())
try:
    lk.release()
except RuntimeError as e:
    print("RuntimeError", e)

r = threading.RLock()
r.acquire()
r.acquire()
r.release()
r.release()
try:
    r.release()
except RuntimeError as e:
    print("RuntimeError", e)

# an RLock held by another thread cannot be released here
held = threading.Event()
go = threading.Event()
r2 = threading.RLock()


def holder():
    with r2:
        held.set()
        go.wait()


t = threading.Thread(target=holder)
t.start()
held.wait()
print("rlock busy", r2.acquire(blocking=False))
try:
    r2.release()
except RuntimeError as e:
    print("RuntimeError", e)
go.set()
t.join()
print("rlock free", r2.acquire(blocking=False))
r2.release()

# a plain Lock may be released by a thread that did not acquire it
lk2 = threading.Lock()
lk2.acquire()
rel = threading.Thread(target=lk2.release)
rel.start()
rel.join()
print("released by other thread", lk2.locked())

# an RLock nested 300 deep (past an 8-bit count) while other threads wait
# for it; a Condition on it waits with the whole recursion saved
deep = threading.RLock()
dc = Counter()


def deep_user(depth):
    for _ in range(10):
        for _ in range(depth):
            deep.acquire()
        dc.value += 1
        for _ in range(depth):
            deep.release()


ts = [threading.Thread(target=deep_user, args=(d,)) for d in (1, 255, 256, 300, 600, 3)]
for t in ts:
    t.start()
for t in ts:
    t.join()
print("deep RLock", dc.value, deep.acquire(False))
deep.release()

dcond = threading.Condition(deep)
for _ in range(300):
    deep.acquire()
other = []


def grab():
    with dcond:  # possible only while the main thread waits
        other.append(deep._is_owned())
        dcond.notify()


t = threading.Thread(target=grab)
with dcond:
    t.start()
    print("wait with 301 levels", dcond.wait_for(lambda: other, 10), deep._is_owned())
    print("expiring wait with 301 levels", dcond.wait(0.05), deep._is_owned())
t.join()
for i in range(300):
    deep.release()
try:
    deep.release()
except RuntimeError as e:
    print("fully released:", e)
