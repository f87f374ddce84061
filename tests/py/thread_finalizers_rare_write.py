# Every finalizer runs while another thread keeps becoming globally unique
# (issue 21, 1). A class attribute assignment is a rare write: its
# transaction is inevitable, and its commit aborts every other transaction
# then running, parked ones included. The main thread queues finalizers
# with gc.collect() inside `with tm.atomic:` (so its transaction may still
# abort) and runs the queue: it waits there to become inevitable behind
# the writer, whose commit aborts it. Before the fix that abort left the
# thread's "running the queue" flag set: it never ran the queue again, and
# the gc.collect() calls at the end ran none of what was queued.
import gc
import os
import threading

from support.tm_fallback import tm

SCALE = int(os.environ.get("TMPY_THREAD_SCALE", "1"))
ROUNDS = 100 * SCALE
PER_ROUND = 50
finalized = 0


class D:
    def __del__(self):
        global finalized
        finalized += 1


class K:
    x = 0


done = False


def writer():
    i = 0
    while not done:
        with tm.atomic:   # one long inevitable transaction per assignment
            K.x = i
            for _ in range(300):
                pass
        i += 1


t = threading.Thread(target=writer)
t.start()
for r in range(ROUNDS):
    for i in range(PER_ROUND):
        D()
    with tm.atomic:
        gc.collect()
done = True
t.join()
# Alone now: only this thread can run what it queues.
for i in range(PER_ROUND):
    D()
for _ in range(3):
    gc.collect()
total = (ROUNDS + 1) * PER_ROUND
print("finalized all:", finalized == total, "" if finalized == total else total - finalized)
print("writer ran:", K.x > 0)
