# threading.Timer: fires once with its args/kwargs; cancel before it fires
# means it never runs; cancel after it fired is harmless.
import threading

fired = []
lock = threading.Lock()


def record(tag, extra=None):
    with lock:
        fired.append((tag, extra, threading.current_thread().name))


t = threading.Timer(0.01, record, args=("once",), kwargs={"extra": 42})
print("is Thread", isinstance(t, threading.Thread), t.daemon)
t.start()
t.join()
print("fired", fired, t.is_alive(), t.finished.is_set())
t.cancel()
print("cancel after firing", fired)

c = threading.Timer(60, record, args=("never",))
c.start()
c.cancel()
c.join()
print("cancelled", c.is_alive(), [f for f in fired if f[0] == "never"], c.finished.is_set())

# cancel before start: the timer never fires
c2 = threading.Timer(0.01, record, args=("never2",))
c2.cancel()
c2.start()
c2.join()
print("cancelled before start", [f for f in fired if f[0] == "never2"])

# several timers; their order of firing is by delay, but print sorted
ts = [threading.Timer(0.001 * (i % 3), record, args=("t%d" % i,)) for i in range(10)]
for x in ts:
    x.start()
for x in ts:
    x.join()
print("many", sorted(f[0] for f in fired if f[0].startswith("t")))

# a timer with a name, and one cancelled from another thread
n = threading.Timer(0.01, record, args=("named",))
n.name = "my-timer"
n.start()
n.join()
print("named", [f for f in fired if f[0] == "named"])

c3 = threading.Timer(60, record, args=("never3",))
c3.start()
killer = threading.Thread(target=c3.cancel)
killer.start()
killer.join()
c3.join()
print("cancelled by thread", c3.is_alive(), len(fired))

# the function runs exactly once even if start/join are repeated
count = [0]


def incr():
    count[0] += 1


t1 = threading.Timer(0, incr)
t1.start()
t1.join()
t1.join()
try:
    t1.start()
except RuntimeError as e:
    print("RuntimeError", e)
print("count", count[0])
