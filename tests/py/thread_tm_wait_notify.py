# tm.wait / tm.notify / tm.notify_all on object monitors: wait releases
# the monitor completely and restores its count; timeouts return False;
# notify returns how many it woke; waiters wake in the order they began
# waiting. CPython has no `tm`: the fallback below builds the same
# behaviour from one RLock per object and a FIFO list of waiters.
import threading

from support.threads import wait_until
from support.tm_fallback import tm

class Box:
    pass


o = Box()
try:
    tm.wait(o)
except RuntimeError as e:
    print("RuntimeError", e)
try:
    tm.wait(o, 0.01)
except RuntimeError as e:
    print("RuntimeError", e)
try:
    tm.notify(o)
except RuntimeError:
    print("notify unowned: RuntimeError")
try:
    tm.notify_all(o)
except RuntimeError:
    print("notify_all unowned: RuntimeError")

# a timeout that expires; the nesting count comes back intact
with tm.synchronized(o):
    with tm.synchronized(o):
        with tm.synchronized(o):
            print("wait expires", tm.wait(o, 0.05), tm.is_owned(o))
            print("notify nobody", tm.notify(o), tm.notify(o, 3), tm.notify_all(o))
        print("depth 2 owned", tm.is_owned(o))
    print("depth 1 owned", tm.is_owned(o))
print("depth 0 owned", tm.is_owned(o))

# while one thread waits (monitor held 3 deep), another can take it
shared = Box()
shared.log = []


def deep_waiter():
    with tm.synchronized(shared):
        with tm.synchronized(shared):
            with tm.synchronized(shared):
                shared.log.append("waiting")
                r = tm.wait(shared, 30)
                shared.log.append("woken %s" % r)
            shared.log.append("owned at 2: %s" % tm.is_owned(shared))
        shared.log.append("owned at 1: %s" % tm.is_owned(shared))
    shared.log.append("owned at 0: %s" % tm.is_owned(shared))


def wait_for_log(obj, n, attr="log"):
    # under the monitor: a waiter that logged before tm.wait is waiting now
    def logged():
        with tm.synchronized(obj):
            return len(getattr(obj, attr)) >= n
    wait_until(logged, "%d entries in %s" % (n, attr))


t = threading.Thread(target=deep_waiter)
t.start()
wait_for_log(shared, 1)
with tm.synchronized(shared):
    # the waiter released all three levels, so we own the monitor now
    shared.log.append("main inside, owned %s" % tm.is_owned(shared))
    print("notify one", tm.notify(shared))
t.join()
print("log", shared.log)

# FIFO wake-up order: waiters start one at a time
fifo = Box()
fifo.log = []
fifo.woken = []
N = 6


def fifo_waiter(i):
    with tm.synchronized(fifo):
        fifo.log.append(i)
        tm.wait(fifo)
        fifo.woken.append(i)


ts = []
for i in range(N):
    t = threading.Thread(target=fifo_waiter, args=(i,))
    t.start()
    ts.append(t)
    wait_for_log(fifo, i + 1)


counts = []
with tm.synchronized(fifo):
    counts.append(tm.notify(fifo))
wait_for_log(fifo, 1, "woken")
with tm.synchronized(fifo):
    counts.append(tm.notify(fifo))
wait_for_log(fifo, 2, "woken")
with tm.synchronized(fifo):
    counts.append(tm.notify(fifo, 2))
wait_for_log(fifo, 4, "woken")
with tm.synchronized(fifo):
    counts.append(tm.notify_all(fifo))
    counts.append(tm.notify_all(fifo))
for t in ts:
    t.join()
print("notify counts", counts)
print("woken order", fifo.woken[:2], sorted(fifo.woken[2:4]), sorted(fifo.woken[4:]))

# bounded buffer: producers and consumers on one monitor with notify_all
buf = Box()
buf.items = []
buf.cap = 3
buf.max = 0
PER = 150
total = [0]


def produce(base):
    for i in range(PER):
        with tm.synchronized(buf):
            while len(buf.items) >= buf.cap:
                tm.wait(buf)
            buf.items.append(base + i)
            buf.max = max(buf.max, len(buf.items))
            tm.notify_all(buf)


def consume(n):
    s = 0
    for _ in range(n):
        with tm.synchronized(buf):
            while not buf.items:
                tm.wait(buf)
            s += buf.items.pop(0)
            tm.notify_all(buf)
    with tm.synchronized(total):
        total[0] += s


ps = [threading.Thread(target=produce, args=(b,)) for b in (0, 1000, 2000, 3000)]
cs = [threading.Thread(target=consume, args=(200,)) for _ in range(3)]
for t in ps + cs:
    t.start()
for t in ps + cs:
    t.join()
want = sum(b + i for b in (0, 1000, 2000, 3000) for i in range(PER))
print("buffer total", total[0], total[0] == want, buf.max <= buf.cap, buf.items)

# a timed wait satisfied in time returns True
ev = Box()
ev.flag = False
res = []


def timed():
    with tm.synchronized(ev):
        while not ev.flag:
            if not tm.wait(ev, 30):
                res.append("timeout")
                return
        res.append("flag seen")


t = threading.Thread(target=timed)
t.start()
with tm.synchronized(ev):
    ev.flag = True
    tm.notify_all(ev)
t.join()
print("timed", res)
