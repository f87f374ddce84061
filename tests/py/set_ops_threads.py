# Blind adds and discards of a shared set (docs/ARCHITECTURE.md, "Blind adds
# and discards of a shared set"): threads add to and discard from big sets
# with no lock; under build/tmpy such an operation writes nothing of the set
# until the commit (objects/setlog.c). Each thread also works on a big set of
# its own (made by the main thread, so shared and old) and reads it right
# after changing it: `in`, len(), iteration, remove() of a missing element,
# a copy, comparison, under a lock and across a sleep (a commit). Each of
# these must see the thread's pending adds and discards (program order).
# Keys: ints, strs (heap keys), floats equal to ints, tuples, and an object
# whose __eq__ is Python code (never logged: a plain add). Checked at the
# end: nothing lost or doubled, each thread's own set exactly what it made.
# TMPY_TEST_SET_SKIP_FLUSH=1 makes the reads blind to pending entries, and
# this must then fail (tests/test_stm_interp.py).
import threading
import time

THREADS = 4
PER = 3000
PRE = 3000          # elements before the threads start: a big (striped) table from the start


class Key:
    """Equal to its int: a comparison that runs Python code."""
    def __init__(self, v):
        self.v = v

    def __hash__(self):
        return hash(self.v)

    def __eq__(self, other):
        return (other.v if isinstance(other, Key) else other) == self.v


shared = set(range(-PRE, 0))
words = set(f"w{i}" for i in range(PRE))
own = [set(range(10 ** 6 * (t + 1), 10 ** 6 * (t + 1) + PRE)) for t in range(THREADS)]
lock = threading.Lock()
oks = [True] * THREADS
fails = [[] for _ in range(THREADS)]


def check(t, cond, what):
    if not cond:
        oks[t] = False
        if len(fails[t]) < 5:
            fails[t].append(what)


def worker(t):
    mine = own[t]
    expect = set(mine)
    base = t * PER
    for i in range(PER):
        x = base + i
        shared.add(x)
        shared.add(x)                       # again: found among the pending adds, not logged twice
        w = f"t{t}-{i}"
        words.add(w)
        check(t, w in words, "own pending str add not seen")
        if i % 2:
            shared.discard(x)              # add then discard in one transaction
            check(t, x not in shared, "own pending discard not seen")
        if i % 10 == 0:
            shared.add(float(x))            # equal to x (present: i is even): no new element
            shared.add((t, i))
        y = 10 ** 6 * (t + 1) + (i % PRE)
        if y in expect:
            mine.discard(y)
            expect.discard(y)
            check(t, y not in mine, "own discard not seen")
        else:
            mine.add(y)
            expect.add(y)
            check(t, y in mine, "own add not seen")
        z = -(t + 1) * 10 ** 7 - i
        mine.add(z)
        expect.add(z)
        if i % 3 == 0:
            mine.discard(z)
            expect.discard(z)
            mine.add(z)                     # a discard, then an add into its dummy
            expect.add(z)
        if i % 7 == 0:
            check(t, len(mine) == len(expect), "own len")
        if i % 97 == 0:
            try:
                mine.remove(-1)
                check(t, False, "remove of a missing element did not raise")
            except KeyError:
                pass
            mine.remove(z)
            expect.discard(z)
            check(t, z not in mine, "remove not seen")
        if i % 211 == 0:
            n = 0
            for _ in mine:
                n += 1
            check(t, n == len(expect), "iteration count")
            check(t, mine == expect, "comparison")
            check(t, set(mine) == expect, "copy")
        if i % 301 == 0:
            with lock:
                mine.add(Key(-5))           # Python __eq__: a plain add
                expect.add(-5)
                check(t, -5 in mine, "plain add under a lock")
        if i % 401 == 0:
            time.sleep(0)                   # a blocking call: the log commits first
            check(t, y in mine or y not in expect, "after a sleep")
    check(t, mine == expect, "final own set")


threads = [threading.Thread(target=worker, args=(t,)) for t in range(THREADS)]
for th in threads:
    th.start()
for th in threads:
    th.join()

ints = [e for e in shared if type(e) is int]
tuples = [e for e in shared if type(e) is tuple]
print("shared", len(shared), len(ints), sum(ints), len(tuples), sum(a * 10 ** 5 + b for a, b in tuples))
print("floats kept out", all(type(e) is not float for e in shared))
print("words", len(words), sum(len(w) for w in words))
print("own sets exact", oks, [f for f in fails if f])
print("own sizes", [len(s) for s in own])
print("own sums", [sum(e if type(e) is int else 0 for e in s) for s in own])
