# tm.synchronized(obj): a reentrant monitor on any object. Nested on the
# same object 300 levels deep (past the thin lock's 8-bit count), nested
# over different objects, and 8 threads incrementing an attribute.
# CPython has no `tm`: the fallback gives each object an RLock, with the
# same observable behaviour. Critical sections switch threads between their
# read and their write, so a monitor that does not exclude loses updates.
import os
import sys
import threading

from support.threads import start_join, switch_point
from support.tm_fallback import tm

N_THREADS = 8
N_ITERS = 1000 * int(os.environ.get("TMPY_THREAD_SCALE", "1"))
sys.setswitchinterval(1e-5)

print("mode known", tm.mode() in ("gil", "htm", "stm"))


class Account:
    def __init__(self):
        self.count = 0


# 8 threads, one shared object
acct = Account()


def bump():
    for _ in range(N_ITERS):
        with tm.synchronized(acct):
            v = acct.count
            switch_point()
            acct.count = v + 1


ts = [threading.Thread(target=bump) for _ in range(N_THREADS)]
start_join(ts)
print("counter", acct.count, acct.count == N_THREADS * N_ITERS, tm.is_owned(acct))

# same object re-entered 300 levels deep, recursively
obj = Account()


def nest(depth, limit, seen):
    with tm.synchronized(obj):
        seen.append(tm.is_owned(obj))
        obj.count += 1
        if depth < limit:
            nest(depth + 1, limit, seen)
        # allocate while holding the monitor at every depth
        obj.tail = [depth] * 3


seen = []
nest(1, 300, seen)
print("nested 300", obj.count, all(seen), len(seen), tm.is_owned(obj), obj.tail)

# the monitor is really free afterwards: another thread can take it at once
got = []
t = threading.Thread(target=lambda: got.append(tm.is_owned(obj)))
t.start()
t.join()


def take():
    with tm.synchronized(obj):
        got.append(tm.is_owned(obj))


t = threading.Thread(target=take)
t.start()
t.join()
print("free after nesting", got)

# a deep nest while other threads contend for the same object
shared = Account()


def deep_then_count(limit):
    for _ in range(20):
        depth = 0
        stack = []
        while depth < limit:
            cm = tm.synchronized(shared)
            cm.__enter__()
            stack.append(cm)
            depth += 1
        v = shared.count
        switch_point()
        shared.count = v + 1
        while stack:
            stack.pop().__exit__(None, None, None)


ts = [threading.Thread(target=deep_then_count, args=(n,)) for n in (1, 2, 254, 255, 256, 257, 300, 600)]
start_join(ts)
print("deep contended", shared.count)

# different objects nested, in a fixed order, from several threads
objs = [Account() for _ in range(5)]


def nested_many():
    for _ in range(N_ITERS // 4):
        with tm.synchronized(objs[0]):
            with tm.synchronized(objs[1]):
                with tm.synchronized(objs[2]):
                    with tm.synchronized(objs[3]):
                        with tm.synchronized(objs[4]):
                            for o in objs:
                                o.count += 1
                            owned = all(tm.is_owned(o) for o in objs)
                            if not owned:
                                print("not owned inside")


ts = [threading.Thread(target=nested_many) for _ in range(N_THREADS)]
start_join(ts)
print("nested objects", [o.count for o in objs], any(tm.is_owned(o) for o in objs))

# exceptions leave the monitor released
e_obj = Account()
try:
    with tm.synchronized(e_obj):
        with tm.synchronized(e_obj):
            raise KeyError("inside")
except KeyError as e:
    print("KeyError", e, tm.is_owned(e_obj))


# a monitor held by one thread blocks another until released
lk_obj = Account()
order = []


def second():
    with tm.synchronized(lk_obj):
        order.append("second")


with tm.synchronized(lk_obj):
    t = threading.Thread(target=second)
    t.start()
    t.join(0.05)
    order.append("first, second alive=%s" % t.is_alive())
t.join()
print("order", order)

# the monitor of an object is independent of its contents and survives
# the object moving in memory (lots of allocation while it is held)
mv = Account()
with tm.synchronized(mv):
    junk = [[i] * 4 for i in range(20000)]
    with tm.synchronized(mv):
        junk2 = {i: str(i) for i in range(5000)}
        print("held across allocation", tm.is_owned(mv), len(junk), len(junk2))
print("released", tm.is_owned(mv))

# synchronized on a list, a dict and a function from many threads
lst = []
dct = {}


def fill(k):
    for i in range(200):
        with tm.synchronized(lst):
            lst.append(k * 1000 + i)
        with tm.synchronized(dct):
            dct[k] = dct.get(k, 0) + i
        with tm.synchronized(fill):
            pass


ts = [threading.Thread(target=fill, args=(k,)) for k in range(6)]
start_join(ts)
print("list", len(lst), sum(lst), "dict", sorted(dct.items())[:2], len(dct))
