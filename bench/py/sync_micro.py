# Locking micro-benchmarks of paper 002 (thin locks), Table 2, in Python.
#
#   python3 bench/py/sync_micro.py BENCH VARIANT ITERATIONS [REPEAT]
#
# BENCH is one of NoSync, Sync, NestedSync, MultiSync1, MultiSync8,
# MultiSync64, Call, CallSync, NestedCallSync, Threads1, Threads2, Threads4.
# VARIANT is the lock: "tm" (tm.synchronized(obj) on a plain object: tmpy
# only), "Lock" (threading.Lock) or "RLock" (threading.RLock); the reference
# benchmarks NoSync and Call take no lock ("none"). NestedSync and
# NestedCallSync hold the lock already, so they need a re-entrant lock: tm or
# RLock (a Lock would deadlock; asking for one is an error).
#
# Every benchmark is a loop of ITERATIONS steps, each incrementing an
# integer, and they differ in what surrounds the increment:
#   NoSync          nothing (cost of the loop itself)
#   Sync            a `with` block on an unlocked lock (initial locking)
#   NestedSync      the same, with the lock already held outside the loop
#   MultiSyncN      the steps go round N distinct locks, one `with` per step
#                   (working sets of N locks)
#   Call            a call of a method that increments a field
#   CallSync        the method locks its object (a "synchronized method")
#   NestedCallSync  the same, with the object's lock held outside the loop
#   ThreadsN        N threads share the steps, each looping on `with` blocks
#                   on the same lock around a shared counter (contention)
# The loop runs REPEAT times (default 1), each timed inside the process
# (start-up excluded; a fresh lock or object each time). Prints one line:
#   BENCH VARIANT ITERATIONS COUNT NS_PER_ITERATION
# with the best time; COUNT, the final value of the counter, must equal
# ITERATIONS every time, else the line ends in FAILED and the exit status is 1.
import sys
import time


class Obj:
    """A plain object: the tm variant locks it through its monitor."""
    pass


def new_lock(variant):
    if variant == "tm":
        return Obj()
    import threading
    if variant == "Lock":
        return threading.Lock()
    if variant == "RLock":
        return threading.RLock()
    raise SystemExit("unknown variant %r" % (variant,))


def synchronized():
    import tm
    return tm.synchronized


# --- reference loops -------------------------------------------------------

def no_sync(n, variant):
    x = 0
    for _ in range(n):
        x += 1
    return x


class Plain:
    def __init__(self):
        self.x = 0

    def inc(self):
        self.x += 1


def call(n, variant):
    c = Plain()
    for _ in range(n):
        c.inc()
    return c.x


# --- synchronized() blocks -------------------------------------------------
# One function per lock shape: `with sync(o):` for tm, `with lock:` for
# Lock/RLock. tm.synchronized is bound to a local, as a hot loop would do.

def sync_tm(n):
    sync = synchronized()
    o = Obj()
    x = 0
    for _ in range(n):
        with sync(o):
            x += 1
    return x


def sync_lock(n, lock):
    x = 0
    for _ in range(n):
        with lock:
            x += 1
    return x


def sync(n, variant):
    if variant == "tm":
        return sync_tm(n)
    return sync_lock(n, new_lock(variant))


def nested_sync_tm(n):
    sync = synchronized()
    o = Obj()
    x = 0
    with sync(o):
        for _ in range(n):
            with sync(o):
                x += 1
    return x


def nested_sync_lock(n, lock):
    x = 0
    with lock:
        for _ in range(n):
            with lock:
                x += 1
    return x


def nested_sync(n, variant):
    if variant == "tm":
        return nested_sync_tm(n)
    return nested_sync_lock(n, new_lock(variant))


def multi_sync_tm(n, objs):
    sync = synchronized()
    x = 0
    for _ in range(n // len(objs)):
        for o in objs:
            with sync(o):
                x += 1
    return x


def multi_sync_lock(n, locks):
    x = 0
    for _ in range(n // len(locks)):
        for lock in locks:
            with lock:
                x += 1
    return x


def multi_sync(k):
    def run(n, variant):
        if n % k:
            raise SystemExit("MultiSync%d: iterations must be a multiple of %d" % (k, k))
        locks = [new_lock(variant) for _ in range(k)]
        if variant == "tm":
            return multi_sync_tm(n, locks)
        return multi_sync_lock(n, locks)
    return run


# --- synchronized methods --------------------------------------------------

_sync = None   # tm.synchronized, set before the tm method benchmarks run


class SyncTm:
    def __init__(self):
        self.x = 0

    def inc(self):
        with _sync(self):
            self.x += 1


class SyncLock:
    def __init__(self, lock):
        self.x = 0
        self.lock = lock

    def inc(self):
        with self.lock:
            self.x += 1


def call_sync(n, variant):
    global _sync
    if variant == "tm":
        _sync = synchronized()
        c = SyncTm()
    else:
        c = SyncLock(new_lock(variant))
    for _ in range(n):
        c.inc()
    return c.x


def nested_call_sync(n, variant):
    global _sync
    if variant == "tm":
        _sync = synchronized()
        c = SyncTm()
        outer = _sync(c)
    else:
        c = SyncLock(new_lock(variant))
        outer = c.lock
    with outer:
        for _ in range(n):
            c.inc()
    return c.x


# --- contention ------------------------------------------------------------

def threads_tm_body(n, o, go):
    sync = synchronized()
    go.wait()
    for _ in range(n):
        with sync(o):
            o.x += 1


def threads_lock_body(n, o, lock, go):
    go.wait()
    for _ in range(n):
        with lock:
            o.x += 1


def threads(k):
    def run(n, variant):
        import threading
        if n % k:
            raise SystemExit("Threads%d: iterations must be a multiple of %d" % (k, k))
        o = Obj()
        o.x = 0
        go = threading.Event()
        if variant == "tm":
            ts = [threading.Thread(target=threads_tm_body, args=(n // k, o, go)) for _ in range(k)]
        else:
            lock = new_lock(variant)
            ts = [threading.Thread(target=threads_lock_body, args=(n // k, o, lock, go))
                  for _ in range(k)]
        for t in ts:
            t.start()
        # The threads are waiting on `go`; time from the release to the last join.
        global _t0
        _t0 = time.perf_counter_ns()
        go.set()
        for t in ts:
            t.join()
        return o.x
    return run


_t0 = None

BENCHES = {
    "NoSync": no_sync, "Sync": sync, "NestedSync": nested_sync,
    "MultiSync1": multi_sync(1), "MultiSync8": multi_sync(8), "MultiSync64": multi_sync(64),
    "Call": call, "CallSync": call_sync, "NestedCallSync": nested_call_sync,
    "Threads1": threads(1), "Threads2": threads(2), "Threads4": threads(4),
}


def main(argv):
    if len(argv) not in (4, 5) or argv[1] not in BENCHES:
        raise SystemExit("usage: sync_micro.py {%s} {tm,Lock,RLock,none} ITERATIONS [REPEAT]"
                         % ",".join(BENCHES))
    name, variant, n = argv[1], argv[2], int(argv[3])
    repeat = int(argv[4]) if len(argv) == 5 else 1
    if name in ("NoSync", "Call"):
        if variant != "none":
            raise SystemExit("%s takes no lock: variant must be none" % name)
    elif variant not in ("tm", "Lock", "RLock"):
        raise SystemExit("variant must be tm, Lock or RLock")
    elif name in ("NestedSync", "NestedCallSync") and variant == "Lock":
        raise SystemExit("%s needs a re-entrant lock (tm or RLock): a Lock would deadlock" % name)
    # Import the modules now so that the timed part finds them loaded.
    if variant == "tm":
        import tm
    if variant in ("Lock", "RLock") or name.startswith("Threads"):
        import threading
    global _t0
    best = None
    for _ in range(repeat):
        _t0 = None
        t0 = time.perf_counter_ns()
        count = BENCHES[name](n, variant)
        t1 = time.perf_counter_ns()
        if _t0 is not None:      # the Threads benchmarks start the clock themselves
            t0 = _t0
        if count != n:
            print("%s %s %d %d FAILED" % (name, variant, n, count))
            return 1
        if best is None or t1 - t0 < best:
            best = t1 - t0
    print("%s %s %d %d %.2f" % (name, variant, n, count, best / n))
    return 0


sys.exit(main(sys.argv))
