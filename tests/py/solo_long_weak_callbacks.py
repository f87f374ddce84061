# Under STM a solo transaction (one thread, or one worker beside a thread
# parked in join()) goes on past the yield points that would end it while
# nobody else wants to run. Weak-reference callbacks are queued only by a
# commit: a solo transaction that never committed would never run them
# (with one thread a blocking call does not commit either). Here they must
# run during the loop, as they do under CPython and the GIL build.
import gc
import os
import threading
import weakref

# TMPY_GC_DEBUG=move (the test suite's move mode) makes every object old at
# its first collection: only a major collection then clears a weak
# reference, and this loop would not reach one.
MOVE = os.environ.get("TMPY_GC_DEBUG") == "move"


class Node:
    pass


def loop(label):
    fired = []
    keep = [None] * 64   # the last weak references (a dead one calls nothing)
    for i in range(400000):
        keep[i % 64] = weakref.ref(Node(), fired.append)
        if MOVE and i % 1000 == 999:
            gc.collect()
        if fired:
            break
    print(label, "callbacks ran:", bool(fired))


loop("main thread alone")
t = threading.Thread(target=loop, args=("worker beside a join",))
t.start()
t.join()
