# Lock acquire/release from several threads: do threads that take different
# locks run in parallel, and what does sharing one lock cost?
#
#   python3 bench/py/locks_parallel.py VARIANT SHARING THREADS ITERATIONS [PREP]
#
# VARIANT: "Lock" (threading.Lock), "RLock" (threading.RLock) or "tm"
# (tm.synchronized on a plain object: tmpy only). SHARING: "own" (each
# thread its own lock and counter) or "shared" (one lock and one counter for
# all). Each thread runs ITERATIONS `with lock: counter += 1` steps. PREP
# "contended" first makes every lock contended once (another thread holds it
# while we try to take it with a timeout; tm: a wait on the monitor), which
# in tmpy inflates an RLock's or an object's monitor to a fat lock. Prints
#   VARIANT SHARING THREADS ITERATIONS PREP TOTAL SECONDS
# with the wall time of the threaded part; TOTAL (the counters' sum) must be
# THREADS * ITERATIONS, else the line ends in FAILED and the status is 1.
import sys
import threading
import time


class Obj:
    pass


class Counter:
    def __init__(self):
        self.n = 0


def new_lock(variant):
    if variant == "Lock":
        return threading.Lock()
    if variant == "RLock":
        return threading.RLock()
    if variant == "tm":
        return Obj()
    raise SystemExit("unknown variant %r" % (variant,))


def loop_with(lock, counter, n):
    for _ in range(n):
        with lock:
            counter.n += 1


def loop_tm(obj, counter, n):
    import tm
    sync = tm.synchronized
    for _ in range(n):
        with sync(obj):
            counter.n += 1


def contend_once(variant, lock):
    if variant == "tm":
        import tm
        with tm.synchronized(lock):
            tm.wait(lock, 0.001)
        return
    held, done = threading.Event(), threading.Event()

    def holder():
        with lock:
            held.set()
            done.wait()
    t = threading.Thread(target=holder)
    t.start()
    held.wait()
    if lock.acquire(timeout=0.001):
        raise SystemExit("took a held lock")
    done.set()
    t.join()


def main():
    variant, sharing, nthreads, n = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
    prep = sys.argv[5] if len(sys.argv) > 5 else "none"
    body = loop_tm if variant == "tm" else loop_with
    if sharing == "shared":
        lock, counter = new_lock(variant), Counter()
        work = [(lock, counter)] * nthreads
        counters = [counter]
    elif sharing == "own":
        work = [(new_lock(variant), Counter()) for _ in range(nthreads)]
        counters = [c for _, c in work]
    else:
        raise SystemExit("unknown sharing %r" % (sharing,))
    if prep == "contended":
        for lock in {id(w[0]): w[0] for w in work}.values():
            contend_once(variant, lock)
    threads = [threading.Thread(target=body, args=(lock, counter, n)) for lock, counter in work]
    t0 = time.perf_counter()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    wall = time.perf_counter() - t0
    total = sum(c.n for c in counters)
    ok = total == nthreads * n
    print(variant, sharing, nthreads, n, prep, total, "%.4f" % wall, "" if ok else "FAILED")
    sys.exit(0 if ok else 1)


main()
