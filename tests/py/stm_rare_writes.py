# env: TMPY_TXLEN=10
# Objects read without read barriers under STM (a function's defaults, a
# class attribute through the inline caches, an instance's class as type()
# sees it) are changed by one thread while others read them: each change
# and a counter that names it are made together in one `with tm.atomic:`
# block, and every reader checks, inside its own block, that what it read
# through those objects matches the counter it reads last. A reader that
# goes on with a stale read (a write into such an object that did not abort
# its readers: VM_WRITE instead of VM_WRITE_RARE) sees a mismatch.
# (TMPY_TXLEN=10: the writer commits after every few changes.)
import os
import threading

from support.threads import start_join
from support.tm_fallback import tm

SCALE = int(os.environ.get("TMPY_THREAD_SCALE", "1"))
ROUNDS = 600 * SCALE
READERS = 3


def f(x=0):
    return x


class C:
    val = 0


class A:
    pass


class B:
    pass


class State:
    def __init__(self):
        self.k = 0


state = State()
obj = A()
c = C()
mismatches = []
done = []
started = []


def writer():
    while len(started) < READERS:   # every reader runs before the first change
        pass
    for k in range(1, ROUNDS + 1):
        with tm.atomic:
            f.__defaults__ = (k,)
            C.val = k
            obj.__class__ = B if k % 2 else A
            state.k = k
        for _ in range(20):
            pass
    done.append(True)


def reader(t):
    seen = 0
    started.append(t)
    while not done or seen < 5:
        with tm.atomic:
            a = f()
            v = c.val
            odd = type(obj) is B
            for _ in range(30):   # yield points: a wide window inside one transaction
                pass
            k = state.k
        if a != k or v != k or odd != (k % 2 == 1):
            mismatches.append((t, a, v, odd, k))
        seen += 1


start_join([threading.Thread(target=writer)] +
           [threading.Thread(target=reader, args=(t,)) for t in range(READERS)])
print("rounds", state.k, "mismatches", len(mismatches), mismatches[:3])
print(f(), C.val, type(obj).__name__)
