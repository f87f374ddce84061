# Allocation-heavy threads: each builds and checks trees, dicts, strings
# and big ints while others do the same, so collections (and object
# moves) happen while other threads are stopped mid-work. Shared
# containers are popped/appended from many threads without a lock: each
# single list/dict operation is atomic, nothing is lost or duplicated.
import os
import threading

SCALE = int(os.environ.get("TMPY_THREAD_SCALE", "1"))
lock = threading.Lock()
results = {}


class Node:
    __slots__ = ("left", "right", "val")

    def __init__(self, left, right, val):
        self.left = left
        self.right = right
        self.val = val


def build(d, v):
    if d == 0:
        return Node(None, None, v)
    return Node(build(d - 1, 2 * v), build(d - 1, 2 * v + 1), v)


def check(n):
    if n is None:
        return 0
    return n.val + check(n.left) + check(n.right)


def worker(k):
    out = []
    for rep in range(3 * SCALE):
        tree = build(9, k + rep)
        d = {("k", i): [i, str(i), i * i] for i in range(300)}
        s = "".join(str(i % 10) for i in range(500))
        big = 1
        for i in range(1, 60):
            big *= i + k
        total = check(tree) + sum(v[2] for v in d.values()) + s.count("7") + big % 1000003
        out.append(total)
    with lock:
        results[k] = out


ts = [threading.Thread(target=worker, args=(k,)) for k in range(6)]
for t in ts:
    t.start()
for t in ts:
    t.join()
# the same computation single-threaded gives the same numbers
saved = results
results = {}
for k in range(6):
    worker(k)
print("threads agree with sequential", saved == results)
for k in sorted(saved):
    print(k, saved[k])

# concurrent pops from one shared list: every item popped exactly once
shared = list(range(20000))
popped = [[] for _ in range(6)]


def popper(k):
    mine = popped[k]
    while True:
        try:
            x = shared.pop()
        except IndexError:
            return
        mine.append(x)
        if x % 3 == 0:
            mine.append(("tag", x))  # allocation in the loop


ts = [threading.Thread(target=popper, args=(k,)) for k in range(6)]
for t in ts:
    t.start()
for t in ts:
    t.join()
allx = sorted(x for m in popped for x in m if isinstance(x, int))
print("popped", len(allx), allx == list(range(20000)), "left", len(shared))

# concurrent dict setdefault/append on shared keys and set.add
groups = {}
seen = set()


def grouper(k):
    for i in range(3000):
        groups.setdefault(i % 17, []).append((k, i))
        seen.add(i * 6 + k)


ts = [threading.Thread(target=grouper, args=(k,)) for k in range(6)]
for t in ts:
    t.start()
for t in ts:
    t.join()
print("groups", len(groups), sum(len(v) for v in groups.values()), len(seen))
