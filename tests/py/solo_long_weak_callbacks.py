# Under STM a solo transaction (one thread, or one worker beside a thread
# parked in join()) goes on past the yield points that would end it while
# nobody else wants to run. Weak-reference callbacks and finalizers are
# queued only by a commit: a solo transaction that never committed would
# never run them (with one thread a blocking call does not commit either).
# Here they must run during the loop, as they do under CPython and the GIL.
import threading
import weakref


class Node:
    pass


class Finalized:
    count = [0]

    def __del__(self):
        Finalized.count[0] += 1


def loop(label):
    fired = []
    keep = []
    Finalized.count[0] = 0
    for i in range(400000):
        n = Node()
        keep.append(weakref.ref(n, fired.append))
        Finalized()
        if fired and Finalized.count[0]:
            break
    print(label, "callbacks ran:", bool(fired), "finalizers ran:", Finalized.count[0] > 0)


loop("main thread alone")
t = threading.Thread(target=loop, args=("worker beside a join",))
t.start()
t.join()
