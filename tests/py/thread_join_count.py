# After Thread.join() returns the thread has left _thread._count() (join waits for the sentinel
# lock _thread releases after the thread's count goes down, as CPython's does); a join with a
# timeout that expires returns with the thread still alive and counted; threading._PyRLock (the
# reentrant lock in Python) nests, refuses a release by a thread that does not hold it, and
# serves a Condition.
import _thread
import threading

late = 0
for i in range(50):
    t = threading.Thread(target=lambda: None)
    t.start()
    t.join()
    late += _thread._count() != 0
print("counted after join:", late)

release = threading.Event()
t = threading.Thread(target=release.wait)
t.start()
t.join(0.01)
print(t.is_alive(), _thread._count())
release.set()
t.join()
print(t.is_alive(), _thread._count())

lock = threading._PyRLock()
print(lock.acquire(), lock.acquire(), lock._is_owned(), repr(lock).split(" owner")[0])
lock.release()
lock.release()
print(repr(lock).split(" at ")[0])
try:
    lock.release()
except RuntimeError as e:
    print("RuntimeError", e)
errors = []


def other():
    try:
        lock.release()
    except RuntimeError as e:
        errors.append(str(e))
    errors.append(lock.acquire(timeout=0.01))


with lock:
    th = threading.Thread(target=other)
    th.start()
    th.join()
print(errors)
cond = threading.Condition(threading._PyRLock())
box = []


def producer():
    with cond:
        box.append(1)
        cond.notify()


with cond:
    with cond:   # nested: wait() gives the lock up whole
        th = threading.Thread(target=producer)
        th.start()
        print(cond.wait_for(lambda: box, timeout=10))
th.join()
