# obj.count += 1 inside `with tm.atomic:` from four threads, with no lock:
# the block is one transaction (STM) or runs without a thread switch (GIL),
# so the count is exact. Also a nested atomic block and a shared list.
import os
import threading

from support.threads import start_join, switch_point
from support.tm_fallback import tm

SCALE = int(os.environ.get("TMPY_THREAD_SCALE", "1"))
THREADS = 4
ROUNDS = 3000 * SCALE


class Box:
    def __init__(self):
        self.count = 0
        self.pairs = 0


box = Box()
log = []


def worker(t):
    for i in range(ROUNDS):
        with tm.atomic:
            c = box.count
            switch_point()
            box.count = c + 1
            with tm.atomic:   # nested blocks flatten
                box.pairs += 2
        if i % 500 == 0:
            with tm.atomic:
                log.append((t, box.count >= i))


start_join([threading.Thread(target=worker, args=(t,)) for t in range(THREADS)])
print("count", box.count, "expected", THREADS * ROUNDS)
print("pairs", box.pairs, "expected", 2 * THREADS * ROUNDS)
print("log", len(log), all(ok for _, ok in log))
