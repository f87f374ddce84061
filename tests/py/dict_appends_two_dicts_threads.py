# One thread's transactions log inserts into two big dicts at once (their
# merges at commit put the entries at both tails), while another thread makes
# plain inserts (str keys) into the second dict, which take its tail and its
# appended counter: the first thread's merge then fails on the second dict
# after the first one was checked. A merge writes the committed state in
# place (runtime/stm.c merge_in_place), so it must check every dict before it
# writes any (vm/objects/dict.c dict_appends_merge_check): had it written the
# first dict, the abort could not take those entries back and the retry
# would add them again (len and the order below would show it).
import threading

N = 40000
PRE = 3000                      # big tables from the start
d1 = {("pre", i): i for i in range(PRE)}
d2 = {("pre", i): i for i in range(PRE)}
start = threading.Barrier(2)


def logger():
    start.wait()
    for i in range(N):
        d1[i] = i
        d2[i] = -i


def plain():
    start.wait()
    for i in range(N // 4):
        d2["s%d" % i] = i


threads = [threading.Thread(target=logger), threading.Thread(target=plain)]
for t in threads:
    t.start()
for t in threads:
    t.join()
print("d1", len(d1), len(d1) == PRE + N, list(d1)[PRE:] == list(range(N)),
      all(d1[i] == i for i in range(N)))
ints = [k for k in d2 if isinstance(k, int)]
strs = [k for k in d2 if isinstance(k, str)]
print("d2", len(d2), len(d2) == PRE + N + N // 4, ints == list(range(N)), len(strs),
      all(d2[i] == -i for i in range(N)), all(d2["s%d" % i] == i for i in range(N // 4)))
