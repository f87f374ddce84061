# Wake-ups of threads waiting for a _thread.lock (issue 20): under STM a
# release that lets a waiter go is transactional and wakes it only after its
# commit (runtime/wake.h). A lost wake-up is a hang (reported as HUNG by
# start_join), a double one two owners at once (a wrong log or count).
# - two locks used as semaphores hand the turn back and forth: every
#   iteration is a release that must wake the other thread;
# - a bounded queue.Queue between producers and consumers (Condition's
#   waits and notifies are lock handoffs);
# - waits that time out leave the lock and the Condition as they were;
# - notify_all wakes every waiter, notify(n) at most n;
# - an RLock taken two levels deep by contending threads, and a Condition
#   on an RLock (the default) handing a turn around a ring of threads.
import os
import queue
import threading
import time

from support.threads import start_join

ROUNDS = 300
# How long a wait may take before it counts as lost (tests/test_stm_interp.py
# makes it short where it expects a hang).
HANG = float(os.environ.get("TMPY_TEST_HANG_SECONDS", "30"))


def ping_pong():
    mine, theirs = threading.Lock(), threading.Lock()
    mine.acquire()
    theirs.acquire()
    log = []

    def player(tag, wait, signal):
        for _ in range(ROUNDS):
            wait.acquire()
            log.append(tag)
            signal.release()

    a = threading.Thread(target=player, args=("a", mine, theirs))
    b = threading.Thread(target=player, args=("b", theirs, mine))
    mine.release()   # a goes first
    start_join([a, b], HANG)
    alternating = all(log[i] == "ab"[i % 2] for i in range(len(log)))
    print("ping-pong:", len(log), "turns, alternating:", alternating)


def pipeline():
    q = queue.Queue(maxsize=1)
    producers, consumers = 3, 3
    sums = []

    def produce(k):
        for i in range(ROUNDS):
            q.put(k * ROUNDS + i)
        q.put(None)

    def consume():
        total = count = 0
        while (x := q.get()) is not None:
            total += x
            count += 1
        sums.append((count, total))

    ts = [threading.Thread(target=produce, args=(k,)) for k in range(producers)]
    ts += [threading.Thread(target=consume) for _ in range(consumers)]
    start_join(ts, HANG)
    n = producers * ROUNDS
    print("pipeline:", sum(c for c, _ in sums), "items, sum right:", sum(t for _, t in sums) == n * (n - 1) // 2)


def timeouts():
    lock = threading.Lock()
    lock.acquire()
    got = []

    def try_it():
        got.append(lock.acquire(timeout=0.02))

    start_join([threading.Thread(target=try_it) for _ in range(3)])
    lock.release()
    # The timed-out waiters left the queue: the lock is free, and a release
    # with nobody waiting wakes nobody.
    print("timed out:", got, "then free:", lock.acquire(False))
    lock.release()
    cond = threading.Condition(threading.Lock())
    with cond:
        print("condition wait timed out:", cond.wait(0.02), "waiters left:", len(cond._waiters))


def notify_counts():
    cond = threading.Condition()
    state = {"go": 0, "woke": 0}

    def waiter():
        with cond:
            while not state["go"]:
                cond.wait()
            state["woke"] += 1

    ts = [threading.Thread(target=waiter) for _ in range(5)]
    for t in ts:
        t.daemon = True
        t.start()
    while True:
        with cond:
            if len(cond._waiters) == 5:
                break
        time.sleep(0.001)
    with cond:
        state["go"] = 1
        cond.notify(2)
        left = len(cond._waiters)
    with cond:
        cond.notify_all()
    for t in ts:
        t.join(HANG)
    if any(t.is_alive() for t in ts):
        print("HUNG waiters")
    print("notify(2) left", left, "waiting; all woke:", state["woke"])


def rlocks():
    lock = threading.RLock()
    box = {"n": 0}

    def add():
        for _ in range(ROUNDS):
            with lock:
                with lock:
                    v = box["n"]
                    for _ in range(3):
                        pass
                    box["n"] = v + 1

    start_join([threading.Thread(target=add) for _ in range(4)], HANG)
    cond = threading.Condition()
    turn = {"who": 0, "log": []}

    def ring(k, n):
        for _ in range(ROUNDS // 10):
            with cond:
                while turn["who"] != k:
                    cond.wait()
                turn["log"].append(k)
                turn["who"] = (k + 1) % n
                cond.notify_all()

    start_join([threading.Thread(target=ring, args=(k, 3)) for k in range(3)], HANG)
    in_order = turn["log"] == [i % 3 for i in range(len(turn["log"]))]
    print("rlock count:", box["n"], "free:", lock.acquire(False), "ring turns:", len(turn["log"]), "in order:", in_order)


ping_pong()
pipeline()
rlocks()
timeouts()
notify_counts()
