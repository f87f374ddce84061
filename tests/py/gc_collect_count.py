# gc.collect()'s result as pyperformance's gc_collect and gc_traversal check
# it: every object of an unreachable cycle counts, young ones included (made
# just before the call); a collection that finds no cyclic garbage returns 0
# although numbers died meanwhile (CPython's reference counting frees those,
# its cycle collector never sees them); objects found unreachable with a
# finalizer count once, not again at the next collection.
import gc
import time


class Node:
    def __init__(self):
        self.next = None
        self.prev = None

    def link_next(self, other):
        self.next = other
        other.prev = self


def make_cycles(n_cycles, n_links):
    cycles = []
    for _ in range(n_cycles):
        first = cur = Node()
        cycles.append(first)
        for _ in range(n_links):
            nxt = Node()
            cur.link_next(nxt)
            cur = nxt
        cur.link_next(first)
    return cycles


for _ in range(3):
    gc.collect()
    cycles = make_cycles(100, 20)
    del cycles
    found = gc.collect()
    print("cycles found", found >= 100 * 21)


def nested(levels):
    cur = []
    for n in range(levels):
        new = [None] * n
        for i in range(n):
            new[i] = cur
        cur = new
    return cur


keep = nested(300)
for _ in range(4):
    gc.collect()
    t0 = time.perf_counter()
    print("nothing cyclic", gc.collect())
    x = [float(i) * 1.5 for i in range(100)]   # acyclic garbage
    del x


class Fin:
    def __init__(self):
        self.me = self

    def __del__(self):
        pass


gc.collect()
for _ in range(10):
    Fin()
print("finalizable", gc.collect() >= 10)
print("after finalizers", gc.collect())
print(len(keep))
