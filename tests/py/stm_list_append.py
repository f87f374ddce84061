# Eight threads append to one shared list with no lock: under the GIL and
# under STM each append is one atomic step, so nothing is lost or doubled
# (a missing read barrier on the list, or a bad rollback, loses items).
import os
import threading

from support.threads import start_join

SCALE = int(os.environ.get("TMPY_THREAD_SCALE", "1"))
THREADS = 8
PER = 3000 * SCALE
shared = []


def worker(k):
    base = k * PER
    for i in range(PER):
        shared.append(base + i)


start_join([threading.Thread(target=worker, args=(k,)) for k in range(THREADS)])
print("length", len(shared), "expected", THREADS * PER)
print("all distinct", len(set(shared)) == len(shared))
print("complete", sorted(shared) == list(range(THREADS * PER)))
# each thread's items keep their order
for k in range(THREADS):
    mine = [x for x in shared if k * PER <= x < (k + 1) * PER]
    assert mine == sorted(mine), k
print("per-thread order kept")
