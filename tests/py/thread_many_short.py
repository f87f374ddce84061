# 500 short-lived threads started in batches; each appends to a shared
# list under a lock. Count and sum are exact; every thread has ended.
import os
import threading

TOTAL = 500 * int(os.environ.get("TMPY_THREAD_SCALE", "1"))
BATCH = 50

items = []
lock = threading.Lock()
idents = set()


def work(i):
    v = i * 3 + 1
    with lock:
        items.append(v)
        idents.add(threading.get_ident())


started = 0
for b in range(0, TOTAL, BATCH):
    batch = [threading.Thread(target=work, args=(i,)) for i in range(b, min(b + BATCH, TOTAL))]
    for t in batch:
        t.start()
        started += 1
    for t in batch:
        t.join()
    if any(t.is_alive() for t in batch):
        print("still alive after join")
print("started", started)
print("count", len(items), len(items) == TOTAL)
print("sum", sum(items), sum(items) == sum(i * 3 + 1 for i in range(TOTAL)))
print("distinct values", len(set(items)))
print("idents are ints", all(isinstance(x, int) for x in idents), len(idents) >= 1)
print("active", threading.active_count(), len(threading.enumerate()))

# threads started without keeping a reference, joined through enumerate()
done = []


def mark(i):
    with lock:
        done.append(i)


for i in range(100):
    threading.Thread(target=mark, args=(i,)).start()
for t in threading.enumerate():
    if t is not threading.current_thread():
        t.join()
print("unreferenced", len(done), sum(done))

# threads that start threads
tree = []


def spawn(depth):
    with lock:
        tree.append(depth)
    if depth < 5:
        kids = [threading.Thread(target=spawn, args=(depth + 1,)) for _ in range(2)]
        for k in kids:
            k.start()
        for k in kids:
            k.join()


spawn(0)
print("tree", len(tree), [tree.count(d) for d in range(6)])
print("active at end", threading.active_count())
