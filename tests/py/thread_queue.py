# queue: Queue with task_done/join and sentinel shutdown, LifoQueue,
# PriorityQueue, SimpleQueue, Empty/Full with timeouts and nowait.
import queue
import threading

# --- workers with task_done / join ---
q = queue.Queue()
results = []
rlock = threading.Lock()
N_WORKERS = 4
SENTINEL = object()


def worker():
    while True:
        item = q.get()
        try:
            if item is SENTINEL:
                return
            with rlock:
                results.append(item * item)
        finally:
            q.task_done()


ws = [threading.Thread(target=worker) for _ in range(N_WORKERS)]
for t in ws:
    t.start()
for i in range(200):
    q.put(i)
q.join()
print("after join", len(results), sum(results), q.unfinished_tasks, q.empty())
for _ in ws:
    q.put(SENTINEL)
for t in ws:
    t.join()
print("workers stopped", sum(t.is_alive() for t in ws), q.qsize(), q.unfinished_tasks)
try:
    q.task_done()
except ValueError as e:
    print("ValueError", e)

# --- bounded queue, producers block on Full, consumers on Empty ---
bq = queue.Queue(maxsize=3)
got = []


def prod(base):
    for i in range(100):
        bq.put(base + i)


def cons(n):
    mine = []
    for _ in range(n):
        mine.append(bq.get())
    with rlock:
        got.extend(mine)


ps = [threading.Thread(target=prod, args=(k * 1000,)) for k in range(3)]
cs = [threading.Thread(target=cons, args=(75,)) for _ in range(4)]
for t in ps + cs:
    t.start()
for t in ps + cs:
    t.join()
print("bounded", len(got), sorted(got) == sorted(k * 1000 + i for k in range(3) for i in range(100)))
print("maxsize", bq.maxsize, bq.full(), bq.empty())

# --- Full / Empty with nowait and timeouts ---
fq = queue.Queue(2)
fq.put_nowait("a")
fq.put("b", timeout=0.01)
print("full", fq.full(), fq.qsize())
for call in (lambda: fq.put_nowait("c"), lambda: fq.put("c", timeout=0.05),
             lambda: fq.put("c", block=False)):
    try:
        call()
    except queue.Full as e:
        print("Full", type(e).__name__, repr(str(e)))
print(fq.get_nowait(), fq.get(timeout=0.01))
for call in (fq.get_nowait, lambda: fq.get(timeout=0.05), lambda: fq.get(False)):
    try:
        call()
    except queue.Empty as e:
        print("Empty", type(e).__name__, repr(str(e)))
try:
    fq.get(timeout=-1)
except ValueError as e:
    print("ValueError", e)
print("Empty is Exception", issubclass(queue.Empty, Exception), issubclass(queue.Full, Exception))

# a get blocked in another thread is woken by a later put
wq = queue.Queue()
box = []
t = threading.Thread(target=lambda: box.append(wq.get(timeout=10)))
t.start()
wq.put("late")
t.join()
print("blocked get", box)

# a put blocked on a full queue is woken by a get
pq1 = queue.Queue(1)
pq1.put(1)
t = threading.Thread(target=lambda: pq1.put(2, timeout=10))
t.start()
print("first", pq1.get())
t.join()
print("second", pq1.get(), pq1.empty())

# --- LifoQueue ---
lq = queue.LifoQueue()
for i in range(5):
    lq.put(i)
print("lifo", [lq.get() for _ in range(5)])

# --- PriorityQueue, filled from several threads ---
prq = queue.PriorityQueue()


def fill(k):
    for i in range(k, 60, 4):
        prq.put((i % 7, i, "x%d" % i))


fs = [threading.Thread(target=fill, args=(k,)) for k in range(4)]
for t in fs:
    t.start()
for t in fs:
    t.join()
order = []
while not prq.empty():
    order.append(prq.get_nowait()[:2])
print("priority", len(order), order[:6], order == sorted(order))

# --- SimpleQueue ---
sq = queue.SimpleQueue()
print("simple empty", sq.empty(), sq.qsize())
total = [0]


def sq_cons():
    s = 0
    while True:
        x = sq.get()
        if x is None:
            break
        s += x
    with rlock:
        total[0] += s


scs = [threading.Thread(target=sq_cons) for _ in range(3)]
for t in scs:
    t.start()
sps = [threading.Thread(target=lambda b=b: [sq.put(b + i) for i in range(100)]) for b in (0, 100, 200)]
for t in sps:
    t.start()
for t in sps:
    t.join()
for _ in scs:
    sq.put(None)
for t in scs:
    t.join()
print("simple total", total[0], total[0] == sum(range(300)), sq.empty())
try:
    sq.get(timeout=0.05)
except queue.Empty:
    print("simple Empty timeout")
try:
    sq.get_nowait()
except queue.Empty:
    print("simple Empty nowait")
sq.put_nowait(7)
sq.put(8, block=False, timeout=3)
print("simple fifo", sq.get(), sq.get(block=False))
