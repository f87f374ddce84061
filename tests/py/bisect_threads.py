# Threads insorting into shared lists at once through the C _bisect: each
# insort is one C call (atomic under the GIL, one step of a transaction under
# STM), and it stores through the list's own insert path, so under STM a
# store that skipped its barrier or a lost update shows as a list that is not
# sorted, too short, or not the values put in. Also a list subclass (its
# insert method is called) and bisect reads racing the writes.
import bisect
import random
import threading

N = 4
PER = 600
shared = []
shared_pairs = []
counts = [0] * N


class Log(list):
    def insert(self, i, x):
        list.insert(self, i, x)


logged = Log()


def work(k):
    rnd = random.Random(k)
    mine = []
    seen = 0
    for i in range(PER):
        v = rnd.randrange(10 ** 6)
        bisect.insort(shared, v)
        bisect.insort_left(shared_pairs, (v % 1000, k, i))
        bisect.insort_right(mine, v)
        if i % 3 == 0:
            bisect.insort(logged, (k, i))
        if bisect.bisect_right(shared, v) >= 1:   # v is in: one atomic call sees it
            seen += 1
    assert mine == sorted(mine)
    counts[k] = seen


threads = [threading.Thread(target=work, args=(k,)) for k in range(N)]
for t in threads:
    t.start()
for t in threads:
    t.join()

vals = []
for k in range(N):
    rnd = random.Random(k)
    vals.extend(rnd.randrange(10 ** 6) for _ in range(PER))
print(len(shared), shared == sorted(vals), shared_pairs == sorted(shared_pairs), len(shared_pairs))
print(len(logged), list(logged) == sorted(logged), counts)
