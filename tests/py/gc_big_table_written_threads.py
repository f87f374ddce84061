# A major collection while a transaction has written items of a big list
# (a conflict unit by cards) with objects only that list reaches: the
# collector traces the list whole once and, in each other view, the pages
# some segment has private (runtime/major.c trace_again). A writer stores new
# lists into every 7th item inside `with tm.atomic:`, allocates enough for a
# minor collection to make them old (created by the transaction, reached
# only through its private pages), while another thread calls gc.collect()
# in a loop. If a view's private pages went untraced, those lists would be
# swept under the writer and the check below would read garbage.
import gc
import threading
from support.tm_fallback import tm

N = 20000
ROUNDS = 12
table = [None] * N          # 160 KiB of references: carded
done = threading.Event()
bad = []


def writer():
    for r in range(ROUNDS):
        with tm.atomic:
            for i in range(0, N, 7):
                table[i] = [r, i, "x" * (i % 5)]
            junk = [[j] for j in range(30000)]   # nursery full: a minor collection inside
            del junk
            for i in range(0, N, 7):
                if table[i] != [r, i, "x" * (i % 5)]:
                    bad.append((r, i))
                    break
        for i in range(0, N, 7):
            if table[i] != [r, i, "x" * (i % 5)]:
                bad.append((r, i, "after"))
                break
    done.set()


def collector():
    n = 0
    while not done.is_set():
        gc.collect()
        n += 1
    return n


threads = [threading.Thread(target=writer), threading.Thread(target=collector)]
for t in threads:
    t.start()
for t in threads:
    t.join()
gc.collect()
print("bad", bad)
print("items", sum(1 for x in table if x is not None), table[7])
