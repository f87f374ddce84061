# The operations CPython implements in C are atomic here too, with threads
# hammering one object each (switch_point() in every loop makes them really
# interleave under the GIL; longer runs: TMPY_THREAD_SCALE=N):
# - defaultdict: threads missing the same keys at once never lose an item
#   (the lookup miss, the factory call and the insertion are one step);
# - itertools.count: next() from many threads gives no value twice and
#   skips none;
# - OrderedDict: move_to_end, popitem, __setitem__ and __delitem__ from
#   many threads keep the order and the length consistent;
# - list.sort: a reader never sees a half-sorted, short or empty list.
import itertools
import os
import sys
from collections import OrderedDict, defaultdict

from support.threads import run_threads, switch_point

SCALE = int(os.environ.get("TMPY_THREAD_SCALE", "1"))
N = 1500 * SCALE
THREADS = 6
sys.setswitchinterval(1e-5)

# defaultdict(list): every thread appends to the same fresh keys
dl = defaultdict(list)


def appender(k):
    for i in range(N):
        dl[i % 97].append((k, i))
        switch_point()


run_threads(appender, [(k,) for k in range(THREADS)])
items = [x for v in dl.values() for x in v]
print("defaultdict(list) keys", len(dl), "items", len(items), "unique", len(set(items)) == len(items))

# defaultdict(int): first accesses race on fresh keys; setdefault-style
# inserts must not replace another thread's entry
di = defaultdict(int)


def toucher(k):
    for i in range(N):
        key = ("k", i)
        di[key] += 1     # not atomic as a whole (as in CPython), but the miss is
        switch_point()


run_threads(toucher, [(k,) for k in range(THREADS)])
print("defaultdict(int) keys", len(di), "counts at most", max(di.values()) <= THREADS)

# itertools.count shared by all threads
for args in ((), (10, 3), (2 ** 70, 1), (0.5, 0.25)):
    counter = itertools.count(*args)
    got = [[] for _ in range(THREADS)]

    def taker(k):
        out = got[k]
        for _ in range(N):
            out.append(next(counter))
            switch_point()

    run_threads(taker, [(k,) for k in range(THREADS)])
    allv = sorted(v for g in got for v in g)
    ref = list(itertools.islice(itertools.count(*args), THREADS * N))
    print("count%r" % (args,), "values", len(allv), "no duplicate or gap", allv == ref,
          "each thread increasing", all(g == sorted(g) for g in got), "next", next(counter) == ref[-1] + (args[1] if args else 1))

# OrderedDict: order and length stay consistent
od = OrderedDict((i, i) for i in range(64))
errors = []


def shuffler(k):
    for i in range(N):
        key = (i * 7 + k) % 64
        op = (i + k) % 4
        if op == 0:
            try:
                od.move_to_end(key, last=bool(i % 2))
            except KeyError:
                pass
        elif op == 1:
            try:
                kk, v = od.popitem(last=bool(i % 3))
                switch_point()
                od[kk] = v           # put it back (at the end)
            except KeyError:
                pass
        elif op == 2:
            od[key] = key            # replace: the order does not change
        else:
            # each thread holds at most one popped item at a time
            keys = list(od)
            if len(keys) < 64 - THREADS or len(set(keys)) != len(keys):
                errors.append((len(keys), len(od)))
        switch_point()


run_threads(shuffler, [(k,) for k in range(THREADS)])
print("OrderedDict len", len(od), "keys", sorted(od) == list(range(64)), "values", all(od[k] == k for k in od),
      "consistent", not errors)

# popitem from both ends by all threads: each item once
od2 = OrderedDict((i, -i) for i in range(THREADS * N))
popped = [[] for _ in range(THREADS)]


def popper(k):
    while True:
        try:
            popped[k].append(od2.popitem(last=k % 2 == 0))
        except KeyError:
            break
        switch_point()


run_threads(popper, [(k,) for k in range(THREADS)])
allp = sorted(p for g in popped for p in g)
print("OrderedDict popitem", len(allp), "each once", allp == [(i, -i) for i in range(THREADS * N)], "left", len(od2))

# list.sort publishes its result at once
shared = list(range(200, 0, -1))
total = sum(shared)
bad = []


def sorter(k):
    for i in range(N // 10):
        if k % 2:
            shared.sort(reverse=bool(i % 2))
        else:
            snap = shared[:]
            if len(snap) != 200 or sum(snap) != total:
                bad.append(len(snap))
            elif snap != sorted(snap) and snap != sorted(snap, reverse=True):
                bad.append("half-sorted")
        switch_point()


run_threads(sorter, [(k,) for k in range(THREADS)])
print("list.sort torn views", len(bad))
