# Item stores into big old lists (card-marked: runtime/cards.h) on every
# path of one item (STORE_SUBSCR, list.__setitem__, append into spare
# capacity), alone (solo transactions under STM) and from four threads on
# disjoint items. The values are new containers: a store whose card a minor
# collection does not trace loses them, one whose card a commit does not
# publish leaves other threads (and the final check) the old value.
import gc
import threading

N = 3000          # 24 KB of items: many cards
T = 4
ROUNDS = 5

big = [None] * N
gc.collect()      # old from now on


def store(i, t, r):
    value = (t, r, [i, r])
    if i % 3 == 0:
        big[i] = value
    elif i % 3 == 1:
        big.__setitem__(i, value)
    else:
        big[i] = value
        big[i] = (t, r, [i, r])   # a second store of the card in the same transaction


def fill(t, step, logs):
    for r in range(ROUNDS):
        for i in range(t, N, step):
            store(i, t, r)
            logs.append([i, r])   # appends into the spare capacity of a big list
        for i in range(t, N, step):
            assert big[i] == (t, r, [i, r]), (i, big[i])
        if r == 2:
            gc.collect()


def check(step, all_logs):
    bad = [i for i in range(N) if big[i] != (i % step, ROUNDS - 1, [i, ROUNDS - 1])]
    print("wrong items", bad[:5])
    for t, logs in enumerate(all_logs):
        want = [[i, r] for r in range(ROUNDS) for i in range(t, N, step)]
        print("log", t, len(logs), logs == want)


alone = []
fill(0, 1, alone)
check(1, [alone])

logs = [[] for _ in range(T)]
threads = [threading.Thread(target=fill, args=(t, T, logs[t])) for t in range(T)]
for th in threads:
    th.start()
for th in threads:
    th.join()
check(T, logs)
print("sum of firsts", sum(v[2][0] for v in big))
