# Inserts that commit at the tail (docs/ARCHITECTURE.md, "Conflict units"):
# threads insert keys of their own (ints, tuples, floats) into one big dict
# with no lock; under build/tmpy an insert of a new key writes only its index
# slot and the commit puts the entry at the dict's tail. Each thread also
# looks its own new keys up again, replaces their values, deletes and
# re-inserts some, asks len(), inserts str keys and iterates a small dict:
# all of these turn the thread's pending inserts into plain ones first.
# Checked at the end: every key present exactly once with its last value,
# len() right, each thread's keys in the order it inserted them, the shared
# counters under the lock exact. TMPY_TEST_DICT_IGNORE_PENDING=1 makes the
# lookups blind to pending inserts, and this must fail (tests/test_stm.py).
import threading

THREADS = 4
PER = 5000
PRE = 6000        # keys before the threads start: a big table from the start

d = {("pre", i): i for i in range(PRE)}
lock = threading.Lock()
counters = [0] * 4
lens = []


def key(t, i):
    m = i % 3
    if m == 0:
        return t * PER + i                 # int
    if m == 1:
        return (t, i)                      # tuple
    return float(t * PER + i) + 0.5        # float


def worker(t):
    mine = 0
    for i in range(PER):
        k = key(t, i)
        d[k] = i
        mine += 1
        if i % 97 == 0:
            d[k] = d[k] + 1                # own pending key, read and replaced
        if i % 89 == 0:
            assert k in d and d.get(k) is not None
        if i % 211 == 0:
            del d[k]                       # gone, then back at the end of the order
            d[k] = i
        if i % 503 == 0:
            lens.append(len(d) >= PRE + mine - 0)
        if i % 701 == 0:
            d["str%d_%d" % (t, i)] = i     # a str key: a plain insert
        if i % 1009 == 0:
            with lock:
                counters[t] += 1
    return mine


threads = [threading.Thread(target=worker, args=(t,)) for t in range(THREADS)]
for th in threads:
    th.start()
for th in threads:
    th.join()


def expected_value(i):
    return i + 1 if i % 97 == 0 and i % 211 != 0 else i


ok = True
for t in range(THREADS):
    for i in range(PER):
        k = key(t, i)
        if d.get(k) != expected_value(i):
            ok = False
print("values", ok)
nstr = sum(1 for t in range(THREADS) for i in range(0, PER, 701))
print("len", len(d), "expected", PRE + THREADS * PER + nstr)
keys = list(d)
print("distinct", len(set(keys)) == len(keys), len(keys) == len(d))
pos = {k: n for n, k in enumerate(keys)}
# Each thread's keys in its insertion order (a deleted and re-inserted key
# went to the end at its re-insertion).
in_order = True
for t in range(THREADS):
    seq = []
    for i in range(PER):
        seq.append((i + 0.5 if i % 211 == 0 else i, key(t, i)))
    seq.sort(key=lambda p: p[0])
    last = -1
    for _, k in seq:
        if pos[k] <= last:
            in_order = False
        last = pos[k]
print("thread order", in_order)
print("pre first", keys[:3], all(pos[("pre", i)] == i for i in range(PRE)))
print("counters", counters, all(lens))
print("sum", sum(v for v in d.values()))
print("items", len(d.items()), len(d.keys()), len(d.values()), len(dict(d)), len(d.copy()))
