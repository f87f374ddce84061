# Timeouts that expire: Lock/RLock.acquire(timeout=...), Condition.wait,
# Condition.wait_for, queue.get/put, Semaphore.acquire, Event.wait,
# Thread.join(timeout) on a thread that is still running.
import queue
import threading

lock = threading.Lock()
lock.acquire()
print("lock timeout", lock.acquire(timeout=0.05))
print("lock nonblocking", lock.acquire(False), lock.acquire(blocking=False))
print("lock timeout 0", lock.acquire(True, 0))
lock.release()
print("lock free", lock.acquire(timeout=0.05))
lock.release()

try:
    lock.acquire(False, 1)
except ValueError as e:
    print("ValueError", e)
try:
    lock.acquire(timeout=-5)
except ValueError as e:
    print("ValueError", e)

# a Lock held by another thread
held = threading.Event()
release = threading.Event()


def hold(lk):
    with lk:
        held.set()
        release.wait()


for label, kind in (("Lock", threading.Lock), ("RLock", threading.RLock)):
    lk = kind()
    held.clear()
    release.clear()
    t = threading.Thread(target=hold, args=(lk,))
    t.start()
    held.wait()
    print(label, "held elsewhere", lk.acquire(timeout=0.05), lk.acquire(False))
    release.set()
    t.join()
    print(label, "after holder", lk.acquire(timeout=5))
    lk.release()

# Condition.wait with a timeout that expires, then the lock is held again
cond = threading.Condition()
with cond:
    r = cond.wait(0.05)
    print("cond wait", r, cond._is_owned())
    print("cond wait_for", cond.wait_for(lambda: False, 0.05))
    print("cond wait 0", cond.wait(0))

# queue timeouts
q = queue.Queue(1)
try:
    q.get(timeout=0.05)
except queue.Empty:
    print("get timeout Empty")
q.put(1)
try:
    q.put(2, timeout=0.05)
except queue.Full:
    print("put timeout Full")
print("queue", q.qsize())

# semaphore timeouts
sem = threading.Semaphore(0)
print("semaphore timeout", sem.acquire(timeout=0.05), sem.acquire(False))

# Event timeout
print("event timeout", threading.Event().wait(0.05))

# join(timeout) on a thread that keeps running
stop = threading.Event()
t = threading.Thread(target=stop.wait, name="sleeper")
t.start()
r = t.join(timeout=0.05)
print("join returned", r, "alive", t.is_alive())
t.join(0)
print("join 0 alive", t.is_alive())
stop.set()
t.join()
print("after stop alive", t.is_alive())

# a Timer that did not fire yet
fired = []
tm_ = threading.Timer(30, fired.append, args=(1,))
tm_.start()
tm_.join(0.05)
print("timer alive", tm_.is_alive(), fired)
tm_.cancel()
tm_.join()
print("timer cancelled", tm_.is_alive(), fired)
