# Producer/consumer on a bounded buffer with threading.Condition:
# wait, wait_for, notify, notify_all; several producers and consumers.
import threading

CAP = 4
N_PROD = 3
N_CONS = 4
PER_PROD = 300


class BoundedBuffer:
    def __init__(self, cap):
        self.cap = cap
        self.items = []
        self.lock = threading.Lock()
        self.not_full = threading.Condition(self.lock)
        self.not_empty = threading.Condition(self.lock)
        self.max_seen = 0

    def put(self, x):
        with self.not_full:
            while len(self.items) >= self.cap:
                self.not_full.wait()
            self.items.append(x)
            if len(self.items) > self.max_seen:
                self.max_seen = len(self.items)
            self.not_empty.notify()

    def get(self):
        with self.not_empty:
            self.not_empty.wait_for(lambda: len(self.items) > 0)
            x = self.items.pop(0)
            self.not_full.notify()
            return x


buf = BoundedBuffer(CAP)
results = [[] for _ in range(N_CONS)]


def producer(pid):
    for i in range(PER_PROD):
        buf.put(pid * 10000 + i)


def consumer(cid):
    out = results[cid]
    while True:
        x = buf.get()
        if x is None:
            break
        out.append(x)


cons = [threading.Thread(target=consumer, args=(i,)) for i in range(N_CONS)]
prods = [threading.Thread(target=producer, args=(i,)) for i in range(N_PROD)]
for t in cons + prods:
    t.start()
for t in prods:
    t.join()
for _ in range(N_CONS):
    buf.put(None)
for t in cons:
    t.join()

allx = sorted(x for r in results for x in r)
expected = sorted(p * 10000 + i for p in range(N_PROD) for i in range(PER_PROD))
print("consumed", len(allx), allx == expected)
print("capacity respected", buf.max_seen <= CAP, "left", buf.items)
# each consumer sees each producer's items in production order
ordered = True
for r in results:
    for p in range(N_PROD):
        mine = [x for x in r if x // 10000 == p]
        if mine != sorted(mine):
            ordered = False
print("per-producer order kept", ordered)

# notify_all wakes every waiter; notify(n) wakes n at a time
cond = threading.Condition()
state = {"gen": 0, "woken": 0, "ready": 0}


def waiter(target_gen):
    with cond:
        state["ready"] += 1
        cond.notify_all()
        cond.wait_for(lambda: state["gen"] >= target_gen)
        state["woken"] += 1
        cond.notify_all()


ws = [threading.Thread(target=waiter, args=(1,)) for _ in range(6)]
for t in ws:
    t.start()
with cond:
    cond.wait_for(lambda: state["ready"] == 6)
    state["gen"] = 1
    cond.notify_all()
    cond.wait_for(lambda: state["woken"] == 6)
for t in ws:
    t.join()
print("notify_all woke", state["woken"])

# notify(n) wakes exactly n of 5 waiters: a woken waiter takes a token, and
# one woken without a token would wait again and count a second wake-up
lock2 = threading.Lock()
cond2 = threading.Condition(lock2)  # the takers wait here for tokens
ready = threading.Condition(lock2)  # the main thread waits here for the takers
tokens = {"n": 0, "taken": 0, "waiting": 0, "wakeups": 0}


def taker():
    with cond2:
        tokens["waiting"] += 1
        ready.notify()
        while tokens["n"] == 0:
            cond2.wait()
            tokens["wakeups"] += 1
        tokens["n"] -= 1
        tokens["taken"] += 1
        tokens["waiting"] -= 1
        ready.notify()


ts = [threading.Thread(target=taker, daemon=True) for _ in range(5)]
for t in ts:
    t.start()
with ready:
    ready.wait_for(lambda: tokens["waiting"] == 5, 10)
taken_steps = []
for step in (2, 2, 1):
    with cond2:
        tokens["n"] += step
        cond2.notify(step)
        ready.wait_for(lambda: tokens["n"] == 0, 10)
        taken_steps.append(tokens["taken"])
for t in ts:
    t.join(10)
print("taken after steps", taken_steps, "waiting", tokens["waiting"], "wake-ups", tokens["wakeups"])

# wait_for returns the predicate value; with a timeout and a false predicate: False
c3 = threading.Condition()
with c3:
    print("wait_for true", c3.wait_for(lambda: 42))
    print("wait_for timeout", c3.wait_for(lambda: 0, timeout=0.05))
    print("wait timeout", c3.wait(0.05))

# wait/notify without holding the lock: RuntimeError
for call in (lambda: c3.wait(0.01), lambda: c3.notify(), lambda: c3.notify_all()):
    try:
        call()
    except RuntimeError as e:
        print("RuntimeError", e)

# Condition with an RLock held twice: wait releases it completely and restores it
rc = threading.Condition(threading.RLock())
flag = []


def setter():
    with rc:
        flag.append(1)
        rc.notify()


with rc:
    with rc:
        t = threading.Thread(target=setter)
        t.start()
        got = rc.wait_for(lambda: flag, timeout=10)
        print("rlock condition", bool(got), rc._is_owned())
    print("still owned once", rc._is_owned())
print("released", rc._is_owned())
t.join()
