# Appends that commit at the tail (docs/ARCHITECTURE.md, "Appends to a
# shared list"): threads append to shared lists with no lock; under
# build/tmpy an append to a list the transaction has not written goes to the
# transaction's append log, and the commit puts the items at the list's tail.
# Each thread also reads a list of its own (made by the main thread, so
# shared and old) right after appending to it: len(), [-1], pop, extend,
# insert, iteration, `in`, under a lock and across a sleep (a commit) and an
# os call: each of these must first turn the pending appends into plain
# ones (and, for lists made with no room, abort: the retry appends plainly). Checked at the end: nothing lost or doubled, each
# thread's items in its order, its own list exactly what it made.
# TMPY_TEST_LIST_SKIP_FLUSH=1 makes the reads blind to pending appends, and
# this must then fail (tests/test_stm_interp.py).
import os
import threading
import time

THREADS = 4
PER = 6000
PRE = 3000          # items before the threads start: a carded array from the start

big = list(range(-PRE, 0))
empty = []          # starts with no room at all: the first commit grows it
own = [[] for _ in range(THREADS)]
spare = [[] for _ in range(THREADS * (PER // 200))]   # empty, no room: a read right after a logged append aborts, the retry appends plainly
lock = threading.Lock()
under_lock = []
checks = [True] * THREADS
lens_ok = [True] * THREADS


def worker(t):
    mine = own[t]
    ok = True
    base = t * PER
    for i in range(PER):
        x = base + i
        big.append(x)
        if i % 3 == 0:
            empty.append(x)
        mine.append(x)
        if i % 7 == 0:
            ok = ok and mine[-1] == x and len(mine) == i + 1   # own pending appends seen
        if i % 101 == 0:
            mine.append(-1)
            ok = ok and mine.pop() == -1 and len(mine) == i + 1
        if i % 203 == 0:
            ok = ok and x in mine and mine.index(x) == i
            n = 0
            for _ in mine:
                n += 1
            ok = ok and n == i + 1
        if i % 200 == 0:
            s = spare[t * (PER // 200) + i // 200]
            s.append(x)
            ok = ok and len(s) == 1 and s[0] == x
        if i % 307 == 0:
            with lock:
                under_lock.append(x)
        if i % 401 == 0:
            mine.extend([])                    # a write through LIST(): flushes
            ok = ok and mine[len(mine) - 1] == x
        if i % 1009 == 0:
            time.sleep(0)                      # commits
        if i % 1511 == 0:
            os.getpid()                        # ordinary call
            ok = ok and len(mine) == i + 1
        if i % 499 == 0 and len(big) < PRE + i + 1:
            lens_ok[t] = False                 # at least everything this thread appended
    checks[t] = ok


threads = [threading.Thread(target=worker, args=(t,)) for t in range(THREADS)]
for th in threads:
    th.start()
for th in threads:
    th.join()

print("big length", len(big), "expected", PRE + THREADS * PER)
print("pre-fill kept", big[:PRE] == list(range(-PRE, 0)))
added = big[PRE:]
print("all distinct", len(set(added)) == len(added))
print("complete", sorted(added) == list(range(THREADS * PER)))
for t in range(THREADS):
    part = [x for x in added if t * PER <= x < (t + 1) * PER]
    assert part == sorted(part), t
print("per-thread order kept")
print("empty list", len(empty), sorted(empty) == sorted(x for x in range(THREADS * PER) if x % PER % 3 == 0))
print("own lists exact", all(own[t] == list(range(t * PER, (t + 1) * PER)) for t in range(THREADS)))
print("reads saw own appends", all(checks), all(lens_ok))
print("under lock", len(under_lock), len(set(under_lock)) == len(under_lock))
print("spare lists", all(len(s) == 1 for s in spare), sorted(s[0] for s in spare) == sorted(t * PER + i for t in range(THREADS) for i in range(0, PER, 200)))
