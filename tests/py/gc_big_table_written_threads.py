# A major collection while a transaction has written items of a big list
# (a conflict unit by cards) with objects only that list reaches: the
# collector traces the list whole once and, in each other view, the pages
# some segment has private (runtime/major.c trace_again). A writer stores new
# lists into every 7th item inside `with tm.atomic:`, allocates enough for a
# minor collection to make them old (created by the transaction, reached
# only through its private pages), while another thread calls gc.collect()
# in a loop (sleeping a little between them). If a view's private pages went untraced, those lists would be
# swept under the writer and the check below would read garbage.
import gc
import threading
import time
from support.tm_fallback import tm

N = 16384
ROUNDS = 8
table = [None] * N          # 128 KiB of references: carded
done = threading.Event()
bad = []


def writer():
    for r in range(ROUNDS):
        with tm.atomic:
            for i in range(0, N, 7):
                table[i] = [r, i, "x" * (i % 5)]
            junk = [b"%d" % j * 500 for j in range(2500)]   # 4 MiB nursery full: a minor collection inside
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
        time.sleep(0.0005)   # lets the writer run where a collection stops it (GIL builds)
    return n


threads = [threading.Thread(target=writer), threading.Thread(target=collector)]
for t in threads:
    t.start()
for t in threads:
    t.join()
gc.collect()
print("bad", bad)
print("items", sum(1 for x in table if x is not None), table[7])
