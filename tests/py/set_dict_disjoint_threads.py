# Conflict units of big sets and dicts (docs/ARCHITECTURE.md, "Conflict
# units"): threads add and discard elements of their own in one big set and
# replace the values of their own keys in one big dict, with no lock; the
# keys of different threads share cards of the tables (key k belongs to
# thread k % THREADS for the dict), so the runtime's per-card locks and
# read markers are what keeps every update. They also bump shared keys of
# both under one lock. Every element, value, count and sum is checked at
# the end. TMPY_STM_TEST_NO_CARD_LOCKS=1 must make this fail
# (tests/test_stm.py).
import threading

THREADS = 4
PER = 6000        # set elements of each thread
DKEYS = 8000      # dict keys, shared out by k % THREADS
ROUNDS = 3
SHARED = 8

s = set(range(-20000, 0))          # big from the start: counted by stripes
d = {k: 0 for k in range(DKEYS)}   # big: read slot by slot
lock = threading.Lock()
shared = {}


def worker(t):
    base = t * PER
    for r in range(ROUNDS):
        for i in range(base, base + PER):
            s.add(i)
        for i in range(base, base + PER, 2):
            s.discard(i)
        for k in range(t, DKEYS, THREADS):
            d[k] += 1
        for i in range(20):
            with lock:
                key = ("shared", i % SHARED)
                shared[key] = shared.get(key, 0) + 1
                d[key] = d.get(key, 0) + 1
                s.add(key)
    for i in range(base, base + PER, 2):
        s.add(i)          # back again: adds into deleted slots
    for i in range(-20000 + t, 0, THREADS * 2):
        s.discard(i)      # each thread removes a share of the first elements


threads = [threading.Thread(target=worker, args=(t,)) for t in range(THREADS)]
for th in threads:
    th.start()
for th in threads:
    th.join()

expected = set(range(-20000, 0)) - {i for t in range(THREADS) for i in range(-20000 + t, 0, THREADS * 2)}
expected |= set(range(THREADS * PER))
expected |= {("shared", i) for i in range(SHARED)}
print("set size", len(s), "expected", len(expected), "equal", s == expected)
print("sum of ints", sum(x for x in s if isinstance(x, int)))
print("dict values", all(d[k] == ROUNDS for k in range(DKEYS)), sum(d[k] for k in range(DKEYS)))
print("shared", sorted(shared.items()) == sorted((k, d[k]) for k in shared), sum(shared.values()))
print("len", len(d), len(s), len(frozenset(s)), len(s | set()), len([x for x in s]))
