# bisect: CPython's results and comparison counts.
import bisect, random
random.seed(1)
log = []
class V:
    def __init__(self, v): self.v = v
    def __lt__(self, o): log.append('lt'); return self.v < (o.v if isinstance(o, V) else o)
    def __repr__(self): return 'V%d' % self.v
for _ in range(200):
    a = sorted(random.randint(0, 9) for _ in range(random.randint(0, 12)))
    x = random.randint(-1, 10)
    lo = random.randint(0, len(a)); hi = random.choice([None, random.randint(lo, len(a))])
    print(bisect.bisect_left(a, x, lo, hi), bisect.bisect_right(a, x, lo, hi), bisect.bisect(a, x),
          bisect.bisect_left(a, -x, key=lambda v: -v) if False else bisect.bisect_left([-v for v in a][::-1], -x))
    b = list(a); bisect.insort(b, x); bisect.insort_left(b, x, key=lambda v: v); print(b)
    w = [V(v) for v in a]; log.clear(); bisect.insort_right(w, V(x)); print(len(log), bisect.bisect_left(w, V(x)), len(log))
try: bisect.bisect([], 1, -1)
except ValueError as e: print(e)
print(bisect.bisect_right([('a', 1), ('b', 2)], 'a', key=lambda p: p[0]))
