# A blocking call whose transaction aborts, retried along another path
# (issue 21, 2). Outside `with tm.atomic:` time.sleep(0) commits the
# transaction before it and starts an inevitable one after it; inside, it
# makes the transaction inevitable instead. Which of the two runs is
# chosen by the clock, so a retry after an abort (the commit before the
# sleep may abort: a conflict, an injected abort) can take the other
# branch. Before the fix the "committed for blocking" flag was set before
# that commit and survived its abort, and the retry inside the atomic block
# started a transaction while one was running (a fatal assertion).
import os
import threading
import time

from support.tm_fallback import tm

SCALE = int(os.environ.get("TMPY_THREAD_SCALE", "1"))
ROUNDS = 1500 * SCALE


class Box:
    n = 0


box = Box()
stop = False


def other():
    # alive, so that a blocking call commits; writes what the loop reads
    while not stop:
        box.n += 1
        time.sleep(0)


t = threading.Thread(target=other)
t.start()
inside = outside = 0
for i in range(ROUNDS):
    seen = box.n
    for _ in range(8):   # yield points: a transaction that may abort starts here
        pass
    if time.perf_counter_ns() // 1000 % 2:
        with tm.atomic:
            time.sleep(0)
            inside += 1
    else:
        time.sleep(0)
        outside += 1
stop = True
t.join()
print(inside + outside == ROUNDS)
