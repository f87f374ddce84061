# heapq: the same comparisons in the same order as CPython, so heaps, merges
# and the calls a custom __lt__ sees match.
import heapq, random
random.seed(3)
log = []
class V:
    def __init__(self, v, t): self.v, self.t = v, t
    def __lt__(self, o): log.append((self.t, o.t)); return self.v < o.v
    def __repr__(self): return '%d%s' % (self.v, self.t)
for trial in range(30):
    data = [random.randint(0, 9) for _ in range(random.randint(0, 40))]
    h = []
    for i, d in enumerate(data):
        heapq.heappush(h, V(d, chr(97 + i % 26)))
    out = [heapq.heappop(h) for _ in range(len(h) // 2)]
    if h: heapq.heapreplace(h, V(5, 'R'))
    heapq.heappushpop(h, V(3, 'P'))
    l2 = [V(d, 'h%d' % i) for i, d in enumerate(data)]
    heapq.heapify(l2)
    print(out, h, l2, len(log))
    log.clear()
    its = [sorted(random.randint(0, 20) for _ in range(random.randint(0, 6))) for _ in range(4)]
    print(list(heapq.merge(*its)), list(heapq.merge(*[sorted(i, reverse=True) for i in its], reverse=True)),
          list(heapq.merge(*[[(x, j) for x in i] for j, i in enumerate(its)], key=lambda p: p[0])))
    print(heapq.nsmallest(3, data), heapq.nlargest(3, data, key=lambda x: -x), heapq.nsmallest(0, data), heapq.nlargest(-1, data))
try: heapq.heappop([])
except IndexError as e: print(e)
print(heapq.heappushpop([], 4), list(heapq.merge()), list(heapq.merge([1, 2])))

try: heapq.heapreplace([], 1)
except IndexError as e: print(e)
