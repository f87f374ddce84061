# Big dicts and sets written by several threads at once: each thread
# inserts, deletes and overwrites keys of its own, and all of them bump a
# few shared keys under one lock. The tables are big enough that a commit
# publishes only the parts (cards) of them that were written
# (runtime/cards.h); a store whose card is not published is lost in the
# other threads' view, and the final check of every key and value fails.
import threading

THREADS = 4
PER = 1200        # keys of each thread
ROUNDS = 3
PRE = 5000        # keys there before the threads start
SHARED = 10

d = {("pre", i): i for i in range(PRE)}
s = set(range(-PRE, 0))
counts = {}
lock = threading.Lock()


def worker(t):
    base = (t + 1) * 1000000
    for r in range(ROUNDS):
        for i in range(PER):
            d[base + i] = (t, i, r)
            s.add(base + i)
        for i in range(0, PER, 3):
            del d[base + i]
            s.discard(base + i)
        for i in range(1, PER, 3):
            d[base + i] = (t, i, r, "over")
        for i in range(40):
            key = ("shared", i % SHARED)
            with lock:
                d[key] = d.get(key, 0) + 1
                s.add(key)
                counts[key] = counts.get(key, 0) + 1
    # each thread removes its own share of the keys that were there before
    for i in range(t, PRE, THREADS * 2):
        del d[("pre", i)]
        s.discard(-1 - i)


threads = [threading.Thread(target=worker, args=(t,)) for t in range(THREADS)]
for th in threads:
    th.start()
for th in threads:
    th.join()

wrong = []
for t in range(THREADS):
    base = (t + 1) * 1000000
    for i in range(PER):
        k = base + i
        if i % 3 == 0:
            want = None
        elif i % 3 == 1:
            want = (t, i, ROUNDS - 1, "over")
        else:
            want = (t, i, ROUNDS - 1)
        if d.get(k) != want:
            wrong.append(("dict", k, d.get(k), want))
        if (k in s) != (want is not None):
            wrong.append(("set", k, k in s))
for i in range(PRE):
    gone = i % (THREADS * 2) < THREADS
    if d.get(("pre", i)) != (None if gone else i):
        wrong.append(("dict pre", i, d.get(("pre", i))))
    if ((-1 - i) in s) == gone:
        wrong.append(("set pre", i))
for j in range(SHARED):
    key = ("shared", j)
    if d.get(key) != THREADS * ROUNDS * 40 // SHARED or counts.get(key) != d.get(key) or key not in s:
        wrong.append(("shared", j, d.get(key), counts.get(key)))

print("wrong:", len(wrong), wrong[:5])
print("dict", len(d), "set", len(s))
print("dict ints", sum(k for k in d if isinstance(k, int)), "set ints", sum(k for k in s if isinstance(k, int)))
# the tables still work after all that: lookups, iteration, copies
dc = dict(d)
sc = set(s)
print(dc == d, sc == s, len(list(d.items())) == len(d), sorted(s, key=str) == sorted(sc, key=str))
