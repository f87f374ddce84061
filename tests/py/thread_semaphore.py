# Semaphore and BoundedSemaphore: a pool of N never has more than N
# holders; releasing a BoundedSemaphore too many times is a ValueError.
import threading

N = 3
sem = threading.Semaphore(N)
lock = threading.Lock()
state = {"inside": 0, "max": 0, "done": 0}


def use(i):
    for _ in range(20):
        with sem:
            with lock:
                state["inside"] += 1
                state["max"] = max(state["max"], state["inside"])
            for _ in range(50):
                pass
            with lock:
                state["inside"] -= 1
                state["done"] += 1


ts = [threading.Thread(target=use, args=(i,)) for i in range(8)]
for t in ts:
    t.start()
for t in ts:
    t.join()
print("pool", state["done"], state["max"] <= N, state["max"] >= 1, state["inside"])

# acquire non-blocking drains the semaphore
s = threading.Semaphore(2)
print("acquire", s.acquire(), s.acquire(False), s.acquire(False), s.acquire(timeout=0.02))
s.release()
print("after release", s.acquire(False))
s.release(3)
print("release(3)", [s.acquire(False) for _ in range(4)])
try:
    s.release(0)
except ValueError as e:
    print("ValueError", e)
try:
    threading.Semaphore(-1)
except ValueError as e:
    print("ValueError", e)
print("Semaphore(0)", threading.Semaphore(0).acquire(False))
# a plain Semaphore can go above its initial value
s2 = threading.Semaphore(1)
s2.release()
s2.release()
print("over-released", [s2.acquire(False) for _ in range(4)])

b = threading.BoundedSemaphore(2)
b.acquire()
b.release()
try:
    b.release()
except ValueError as e:
    print("ValueError", e)
b.acquire()
b.acquire()
b.release(2)
try:
    b.release(1)
except ValueError as e:
    print("ValueError", e)
b.acquire()
try:
    b.release(2)
except ValueError as e:
    print("ValueError", e)
print("bounded still usable", b.acquire(False), b.acquire(False))

# a blocked acquire is woken by a release in another thread
s3 = threading.Semaphore(0)
got = []
waiters = [threading.Thread(target=lambda: got.append(s3.acquire(timeout=30))) for _ in range(4)]
for t in waiters:
    t.start()
s3.release()
s3.release(3)
for t in waiters:
    t.join()
print("woken", got, s3.acquire(False))

# semaphore as a signal between producer and consumer
items = []
avail = threading.Semaphore(0)
out = []


def producer():
    for i in range(100):
        with lock:
            items.append(i)
        avail.release()


def consumer():
    for _ in range(50):
        avail.acquire()
        with lock:
            out.append(items.pop())


cs = [threading.Thread(target=consumer) for _ in range(2)]
p = threading.Thread(target=producer)
for t in cs + [p]:
    t.start()
for t in cs + [p]:
    t.join()
print("signalled", len(out), sum(out), items)
