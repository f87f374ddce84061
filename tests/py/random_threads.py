# Threads sharing one random.Random (random.py over _random): each random()
# and getrandbits() call is atomic, so the values all threads drew are the
# values one thread draws from the same seed, and nothing is drawn twice.
# Threads with generators of their own get CPython's sequences.
import random
import threading

THREADS, CALLS = 4, 1500


def shared(method, *args):
    g = random.Random(2024)
    out = [[] for _ in range(THREADS)]

    def work(t):
        f = getattr(g, method)
        mine = out[t]
        for _ in range(CALLS):
            mine.append(f(*args))

    ts = [threading.Thread(target=work, args=(t,)) for t in range(THREADS)]
    for t in ts:
        t.start()
    for t in ts:
        t.join()
    ref = random.Random(2024)
    expected = [getattr(ref, method)(*args) for _ in range(THREADS * CALLS)]
    drawn = [v for o in out for v in o]
    return sorted(drawn) == sorted(expected), len(set(drawn)) == len(set(expected)), g.getstate() == ref.getstate()


print('getrandbits(32)', shared('getrandbits', 32))
print('random()', shared('random'))
print('getrandbits(100)', shared('getrandbits', 100))

results = {}


def own(t):
    g = random.Random(t)
    x = list(range(50))
    g.shuffle(x)
    results[t] = (x[:5], g.randrange(10 ** 6), g.choice('abcdef'), round(g.gauss(0, 1), 12), g.sample(range(100), 3))


ts = [threading.Thread(target=own, args=(t,)) for t in range(THREADS)]
for t in ts:
    t.start()
for t in ts:
    t.join()
for t in range(THREADS):
    print(t, results[t])
