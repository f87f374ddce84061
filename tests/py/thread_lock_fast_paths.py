# _thread.lock and RLock at the edges of their inlined fast paths (issue 20:
# an uncontended acquire or release is a write of the lock word, everything
# else a slow path): arguments that must still be checked on a free lock,
# a Lock released by a thread that did not take it, an RLock's levels up
# and down across the first and the last, an RLock held by another thread,
# subclasses of RLock, _release_save/_acquire_restore, and waiters that
# come and go (a timed-out waiter, then a blocked one) on the same lock.
import _thread
import threading
import time


def show(what, f):
    try:
        print(what, f())
    except Exception as e:
        print(what, type(e).__name__, e)


def in_thread(f):
    out = []
    t = threading.Thread(target=lambda: out.append(f()))
    t.start()
    t.join()
    return out[0] if out else None


def try_in_thread(l):
    """Whether another thread can take l now (it lets it go at once)."""
    def attempt():
        got = l.acquire(False)
        if got:
            l.release()
        return got
    return in_thread(attempt)


class SubRLock(_thread.RLock):
    pass


lock = threading.Lock()
show("acquire", lock.acquire)
show("acquire nonblocking taken", lambda: lock.acquire(False))
show("acquire timeout taken", lambda: lock.acquire(timeout=0.01))
show("release", lock.release)
show("release again", lock.release)
show("acquire(False, 1) free", lambda: lock.acquire(False, 1))
show("acquire(timeout=-2) free", lambda: lock.acquire(timeout=-2))
show("acquire('x') free", lambda: lock.acquire(blocking=True, timeout="x"))
show("locked", lock.locked)
show("acquire(True) free", lambda: lock.acquire(True))
show("acquire_lock taken", lambda: lock.acquire_lock(0))
show("released by another thread", lambda: in_thread(lock.release))
show("taken by another thread", lambda: try_in_thread(lock))
show("locked after", lock.locked)
show("with", lambda: [lock.locked() for _ in [lock.__enter__()]] + [lock.__exit__(None, None, None), lock.locked()])

for r in (_thread.RLock(), SubRLock(), threading.RLock()):
    name = type(r).__name__
    show(name + " release unowned", r.release)
    levels = []
    for i in range(5):
        r.acquire()
        levels.append(r._recursion_count())
    show(name + " levels", lambda: levels)
    show(name + " owned", r._is_owned)
    show(name + " other thread acquire(False)", lambda: try_in_thread(r))

    def release_unowned():
        try:
            r.release()
        except RuntimeError as e:
            return "RuntimeError " + str(e)
    show(name + " other thread release", lambda: in_thread(release_unowned))
    down = []
    for i in range(5):
        r.release()
        down.append(r._recursion_count())
    show(name + " down", lambda: down)
    show(name + " release once more", r.release)
    show(name + " acquire(False, 1)", lambda: r.acquire(False, 1))
    with r:
        state = r._release_save()
        show(name + " after _release_save", lambda: (state[0], r._is_owned(), try_in_thread(r)))
        r._acquire_restore(state)
        show(name + " restored", lambda: (r._recursion_count(), r._is_owned()))
    show(name + " repr", lambda: repr(r).split(" object")[0])

# Waiters that come and go on one lock: one times out, one blocks until
# the release, then the lock is free and uncontended again.
for make in (threading.Lock, _thread.RLock, SubRLock):
    l = make()
    l.acquire()
    timed = in_thread(lambda: l.acquire(timeout=0.02))
    order = []

    def blocked():
        with l:
            order.append("waiter")

    t = threading.Thread(target=blocked)
    t.start()
    time.sleep(0.02)
    order.append("release")
    l.release()
    t.join()
    for i in range(100):
        with l:
            pass
    print(make.__name__, "timed out", timed, order, l.acquire(False), try_in_thread(l))
    l.release()
