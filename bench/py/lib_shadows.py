"""The modules whose tmpy lib/ versions gave way to CPython's (heapq over
_heapq, operator over _operator, ...): a few operations of each in a loop.
Run under a build with and without the old lib/ files first on PYTHONPATH
(bench/results/lib_shadows.txt)."""
import heapq, operator, random, sys, time

N = int(sys.argv[1]) if len(sys.argv) > 1 else 20000


def bench_heapq():
    rnd = random.Random(1)
    data = [rnd.random() for _ in range(N)]
    h = []
    for x in data:
        heapq.heappush(h, x)
    out = [heapq.heappop(h) for _ in range(N)]
    heapq.heapify(data)
    return heapq.nsmallest(5, out) == sorted(out)[:5] and len(list(heapq.merge(out, out)))


def bench_operator():
    rows = [(i, -i, str(i)) for i in range(N)]
    g = operator.itemgetter(1)
    g2 = operator.itemgetter(0, 2)
    s = 0
    for r in rows:
        s += g(r)
        g2(r)
    class P:
        def __init__(self, x): self.x = x
    ps = [P(i) for i in range(N)]
    a = operator.attrgetter('x')
    for p in ps:
        s += a(p)
    s += sum(map(operator.add, range(N), range(N)))
    return s + len(sorted(rows, key=g))


def bench_weakref():
    import weakref
    class K:
        pass
    keys = [K() for _ in range(N // 4)]
    wv = weakref.WeakValueDictionary()
    wk = weakref.WeakKeyDictionary()
    for i, k in enumerate(keys):
        wv[i] = k
        wk[k] = i
    s = 0
    for _ in range(4):
        for i, k in enumerate(keys):
            s += wk[k]
            s += wv[i] is k
    del keys
    return s + len(wv) + len(wk)


for name, fn in (("heapq", bench_heapq), ("operator", bench_operator), ("weakref", bench_weakref)):
    if len(sys.argv) > 2 and name not in sys.argv[2:]:
        continue
    t = time.process_time()
    fn()
    print(f"{name}: {time.process_time() - t:.3f} s CPU")
