# _multiprocessing.SemLock as multiprocessing.synchronize uses it: kinds, counts, owners, timeouts,
# errors, names and _rebuild, and the Lock/RLock/Semaphore/BoundedSemaphore built on it, between
# threads of one process
import _multiprocessing
import multiprocessing as mp
import os
import threading
from _multiprocessing import SemLock, sem_unlink

RECURSIVE_MUTEX, SEMAPHORE = 0, 1
print(SemLock.SEM_VALUE_MAX >= 32767, sorted(_multiprocessing.flags))

name = "/tmpy-semlock-%d" % os.getpid()
s = SemLock(SEMAPHORE, 2, 3, name, False)
print(s.kind, s.maxvalue, s.name == name, s._get_value(), s._is_zero(), s._count())
print(s.acquire(), s.acquire(), s.acquire(False), s.acquire(True, 0.01), s._is_zero(), s._count())
s.release()
s.release()
s.release()
try:
    s.release()
except ValueError as e:
    print("ValueError", e)
other = SemLock._rebuild(0, SEMAPHORE, 3, name)
print(other._get_value(), other.acquire(timeout=0), s._get_value())
sem_unlink(name)
try:
    sem_unlink(name)
except FileNotFoundError as e:
    print("FileNotFoundError", e.errno)
try:
    SemLock(5, 1, 1, name + "x", True)
except ValueError as e:
    print("ValueError", e)

r = SemLock(RECURSIVE_MUTEX, 1, 1, name + "r", True)
print(r.name, r._is_mine(), r.acquire(), r.acquire(), r._count(), r._is_mine())
result = []


def other_thread():
    result.append(r._is_mine())
    result.append(r.acquire(timeout=0.01))
    try:
        r.release()
    except AssertionError as e:
        result.append(str(e))


t = threading.Thread(target=other_thread)
t.start()
t.join()
print(result)
r.release()
r.release()
print(r._count(), r._is_mine())
try:
    r.release()
except AssertionError as e:
    print("AssertionError", e)
with r:
    print("with", r._count())
r._after_fork()
print(r._count())

# the synchronize classes, shared by threads
lock, rlock = mp.Lock(), mp.RLock()
sem, bsem = mp.Semaphore(3), mp.BoundedSemaphore(1)
total = [0]


def work():
    for _ in range(200):
        with lock:
            total[0] += 1
        with rlock:
            with rlock:
                total[0] += 1
        with sem:
            pass


ts = [threading.Thread(target=work) for _ in range(4)]
for t in ts:
    t.start()
for t in ts:
    t.join()
print(total[0], sem.get_value(), repr(lock)[:20], repr(rlock)[:21])
bsem.acquire()
bsem.release()
try:
    bsem.release()
except ValueError as e:
    print("ValueError", e)
