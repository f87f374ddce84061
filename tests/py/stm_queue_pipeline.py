# A three-stage pipeline on queue.Queue: two producers, three squarers, one
# collector; every item arrives once, and the sum is exact.
import queue
import threading

from support.threads import start_join

N = 3000
q1 = queue.Queue(maxsize=64)
q2 = queue.Queue()
results = []


def producer(start):
    for i in range(start, N, 2):
        q1.put(i)


def squarer():
    while True:
        x = q1.get()
        if x is None:
            q1.put(None)   # let the other squarers stop too
            return
        q2.put(x * x)


def collector(count):
    for _ in range(count):
        results.append(q2.get())


rest = [threading.Thread(target=squarer) for _ in range(3)] + [threading.Thread(target=collector, args=(N,))]
for t in rest:
    t.daemon = True
    t.start()
start_join([threading.Thread(target=producer, args=(s,)) for s in (0, 1)])
q1.put(None)   # every item is queued: the squarers may stop
for t in rest:
    t.join(30)
print("items", len(results), "sum", sum(results) == sum(i * i for i in range(N)))
print("distinct", len(set(results)) == N)
