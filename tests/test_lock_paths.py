"""_thread.lock and RLock (vm/modules/threadmodule.c): an uncontended acquire
or release is the inlined fast path, a transactional write of the lock word
(issue 20), in both builds; only a lock held by another thread, a release
with waiters, or another thread's release take the slow paths, which
tm.stats() counts (lock_slow_acquires, lock_slow_releases). After a
contended episode the lock is uncontended again: a waiter that timed out or
was woken leaves no queue behind that would send every later release down
the slow path."""
import pytest

from conftest import BUILD, run

N = 2000
LOCK_PATHS = f"""
import _thread, threading, time, tm
N = {N}

def slow():
    s = tm.stats()
    return s["lock_slow_acquires"], s["lock_slow_releases"]

def delta(before):
    a, r = slow()
    return (a - before[0], r - before[1])

class SubRLock(_thread.RLock):
    pass

lock, rlock, sub = threading.Lock(), _thread.RLock(), SubRLock()

def pairs():
    for i in range(N):
        with lock:
            pass
        lock.acquire()
        lock.release()
        for r in (rlock, sub):
            with r:
                with r:
                    r.acquire()
                    r.release()

def in_thread(f):
    t = threading.Thread(target=f)
    t.start()
    t.join()

b = slow()
pairs()
print("uncontended", delta(b))

# Waiters that time out: each leaves the queue it was alone in.
got = []
lock.acquire(); rlock.acquire(); sub.acquire()
in_thread(lambda: got.extend([lock.acquire(timeout=0.02), rlock.acquire(timeout=0.02), sub.acquire(timeout=0.02)]))
lock.release(); rlock.release(); sub.release()
b = slow()
pairs()
print("after timeouts", got, delta(b))

# Waiters that block until the holder lets go: each is woken (or finds the
# lock free), takes it and releases it.
order = []
def waiter(l, name):
    with l:
        order.append(name)
for l, name in ((lock, "lock"), (rlock, "rlock"), (sub, "sub")):
    l.acquire()
    before = slow()[0]
    t = threading.Thread(target=waiter, args=(l, name))
    t.start()
    deadline = time.monotonic() + 5
    while slow()[0] == before and time.monotonic() < deadline:
        time.sleep(0.001)   # until the waiter has found the lock taken
    time.sleep(0.01)
    order.append("release " + name)
    l.release()
    t.join()
b = slow()
pairs()
print("after waits", order, delta(b))

# Another thread's release of a Lock is the slow path; the lock is free after it.
lock.acquire()
b = slow()
in_thread(lock.release)
print("released by another thread", lock.locked(), delta(b)[1] >= 1)
b = slow()
pairs()
print("after", delta(b))
"""
WANT = ("uncontended (0, 0)\n"
        "after timeouts [False, False, False] (0, 0)\n"
        "after waits ['release lock', 'lock', 'release rlock', 'rlock', 'release sub', 'sub'] (0, 0)\n"
        "released by another thread False True\n"
        "after (0, 0)\n")

VARIANTS = {
    "gil": ("tmpy-gil", {}),
    "gil-move": ("tmpy-gil", {"TMPY_GC_DEBUG": "move"}),
    "stm": ("tmpy", {}),
    "stm-short": ("tmpy", {"TMPY_TXLEN": "5", "TMPY_SEGMENTS": "4"}),
    "stm-aborts": ("tmpy", {"TMPY_TXLEN": "5", "TMPY_SEGMENTS": "4", "TMPY_STM_INJECT_ABORTS": "0.05:11"}),
    "stm-move-aborts": ("tmpy", {"TMPY_GC_DEBUG": "move", "TMPY_SEGMENTS": "2", "TMPY_TXLEN": "20",
                                 "TMPY_STM_INJECT_ABORTS": "0.02:5"}),
}


@pytest.mark.parametrize("variant", list(VARIANTS))
def test_uncontended_lock_operations_take_the_fast_path(variant):
    exe, env = VARIANTS[variant]
    p = run([str(BUILD / exe), "-c", LOCK_PATHS], env, timeout=300)
    assert (p.returncode, p.stdout) == (0, WANT), p.stderr[-3000:]
