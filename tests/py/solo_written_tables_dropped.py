# A thread alone runs solo and writes in place: old tables it writes and then
# drops are garbage for a major collection run inside its transaction or its
# commit (a solo transaction cannot abort, so they need not survive as abort
# roots: runtime/major.c, tm_stm_forget_dead_written), and nothing after may
# trip over them; what it keeps stays intact, and threads started afterwards
# see all of it. Big tables: collections are triggered by their size.
import gc
import threading
import time

keep = []
for r in range(8):
    big = [0] * 120000                    # a carded list
    d = {i: None for i in range(30000)}   # a big dict
    time.sleep(0)                         # a blocking call commits: both are old now
    for i in range(0, 120000, 997):
        big[i] = (r, i)                   # written by the next transaction, in place
    for i in range(0, 30000, 301):
        d[i] = [r, i]
    if r % 2:
        keep.append((big, d))
    del big, d
    junk = [str(k) for k in range(3000)]
ok = all(big[i] == (r, i) for big, d in keep for i in range(0, 120000, 997)
         for r in [big[0][0]])
ok2 = all(d[i] == [d[0][0], i] for big, d in keep for i in range(0, 30000, 301))
print(len(keep), ok, ok2)

total = [0, 0]


def work(k):
    s = 0
    for big, d in keep:
        for i in range(k * 997, 120000, 2 * 997):
            if big[i]:
                s += big[i][1]
        d[k] = [k]
    total[k] = s


ts = [threading.Thread(target=work, args=(k,)) for k in range(2)]
for t in ts:
    t.start()
for t in ts:
    t.join()
gc.collect()
print(total, [keep[j][1][k] for j in range(len(keep)) for k in range(2)])
