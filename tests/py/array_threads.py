# Threads writing arrays at once: each thread fills its own slice of one
# shared array of doubles (item stores), grows its own array (appends,
# slice assignment, extend), and appends to one shared array under a lock.
# Under STM a store that skipped the write barrier is lost (or faults under
# TMPY_STM_CHECK=1), so the sums would differ.
import threading
from array import array

N = 4
PER = 300
shared = array('d', [0.0]) * (N * PER)
log = array('i')
lock = threading.Lock()
own = [None] * N


def work(k):
    mine = array('q')
    for i in range(PER):
        shared[k * PER + i] = float(k * 1000 + i)
        mine.append(i * i)
        if i % 50 == 0:
            mine[0:1] = array('q', [mine[0], -i])
            with lock:
                log.append(k)
    mine.extend(range(10))
    own[k] = mine


threads = [threading.Thread(target=work, args=(k,)) for k in range(N)]
for t in threads:
    t.start()
for t in threads:
    t.join()
print(sum(shared), len(shared), sorted(log).count(0), len(log))
for k in range(N):
    print(k, len(own[k]), sum(own[k]), own[k][:3].tolist())
