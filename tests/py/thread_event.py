# threading.Event: set/clear/is_set, wait with and without timeout,
# a timeout that expires returns False, many waiters released by one set.
import threading

ev = threading.Event()
print("initial", ev.is_set())
print("wait expires", ev.wait(0.05))
print("wait 0", ev.wait(0))
ev.set()
print("after set", ev.is_set(), ev.wait(), ev.wait(0), ev.wait(0.01))
ev.clear()
print("after clear", ev.is_set(), ev.wait(0.02))

# many waiters released by a single set()
start = threading.Event()
lock = threading.Lock()
released = []


def waiter(i):
    r = start.wait(10)
    with lock:
        released.append((i, r))


ts = [threading.Thread(target=waiter, args=(i,)) for i in range(8)]
for t in ts:
    t.start()
start.set()
for t in ts:
    t.join()
print("released", sorted(released))

# ping-pong between two threads with two events, 100 rounds
ping = threading.Event()
pong = threading.Event()
trace = []


def player():
    for i in range(100):
        ping.wait()
        ping.clear()
        trace.append(("pong", i))
        pong.set()


t = threading.Thread(target=player)
t.start()
for i in range(100):
    trace.append(("ping", i))
    ping.set()
    pong.wait()
    pong.clear()
t.join()
ok = all(trace[2 * i] == ("ping", i) and trace[2 * i + 1] == ("pong", i) for i in range(100))
print("ping-pong", len(trace), ok)

# a waiter with a timeout that another thread satisfies in time
ev2 = threading.Event()
res = []
t = threading.Thread(target=lambda: res.append(ev2.wait(30)))
t.start()
ev2.set()
t.join()
print("satisfied", res)

# a waiter whose timeout expires while nobody sets it
ev3 = threading.Event()
res3 = []
ts = [threading.Thread(target=lambda: res3.append(ev3.wait(0.05))) for _ in range(3)]
for t in ts:
    t.start()
for t in ts:
    t.join()
print("expired", res3, ev3.is_set())
print("negative timeout", ev3.wait(-1))
