# A long transaction that a stream of rare writes keeps aborting falls back
# to running inevitable after its aborts in a row have lost a few
# milliseconds, not only after 8 aborts (issue 21's matrix: a 30 ms
# `with tm.atomic:` block lost 8 x 30 ms each time, over 5x tmpy-gil's
# time), and that a retry waiting for its turn to become inevitable is not
# aborted by each rare write (it has read nothing yet). One thread assigns a class attribute in a loop (a rare write: its
# commit aborts every other running transaction); the main thread runs
# `with tm.atomic:` blocks of about 5 ms each. Under build/tmpy the blocks
# may lose at most a few attempts each to the rare writes (counted in
# tm.stats()); every build prints the same.
import threading
import time

from support.tm_fallback import tm

BLOCKS = 20
BLOCK_S = 0.005


class K:
    x = 0


done = False


def writer():
    i = 0
    while not done:
        K.x = i   # a rare write: globally unique, aborts the others
        i += 1


def rare_write_aborts():
    if getattr(tm, "mode", lambda: "")() != "stm":
        return 0
    return tm.stats()["aborts_by_cause"]["rare_write"]


t = threading.Thread(target=writer)
t.start()
while K.x == 0:
    time.sleep(0.001)
before = rare_write_aborts()
total = 0
for b in range(BLOCKS):
    with tm.atomic:
        n = 0
        t0 = time.perf_counter()
        while time.perf_counter() - t0 < BLOCK_S:
            n += 1
        total += 1
lost = rare_write_aborts() - before
done = True
t.join()
print("blocks:", total)
# How many a block loses depends on whether the two threads really run at
# the same time. On a loaded machine they take turns: the writer's next
# commit comes after the block has run a few ms, one abort loses the 2 ms
# and the retry goes inevitable (about 1 per block). On two free CPUs the
# writer commits a rare write every ~0.3 ms, so each attempt is aborted
# before it lost much: the 2 ms rule never fires and the 8-aborts-in-a-row
# rule does (ABORTS_BEFORE_INEVITABLE in vm/rt/txstate.c): 7-8 per block,
# 146-160 in all, the same in the commit that added this test (measured
# under `chrt -r 1`, which gives both threads a CPU; issue 21 note). So the
# bound is that rule plus one for the short transactions between the blocks;
# before the fall-back the test lost 192-701 in all (a retry waiting for its
# turn to be inevitable was aborted by each rare write and counted from zero
# again), over it.
print("bounded:", lost <= 9 * BLOCKS, "" if lost <= 9 * BLOCKS else lost)
print("writer ran:", K.x > 0)
