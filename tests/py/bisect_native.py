# _bisect (the C module bisect.py imports): results, comparison order, key=,
# lo/hi (hi=None and hi=-1 both mean len(a)), insort on lists, list
# subclasses and other sequences, and CPython's errors.
import bisect, _bisect, random

print(bisect.bisect_left is _bisect.bisect_left, bisect.insort is _bisect.insort_right,
      bisect.bisect is _bisect.bisect_right, sorted(n for n in dir(_bisect) if not n.startswith('__')))

def show(f):
    try:
        r = f()
        print('ok', r)
    except Exception as e:
        print(type(e).__name__, e)

rnd = random.Random(22)
for trial in range(300):
    a = sorted(rnd.randint(0, 12) for _ in range(rnd.randint(0, 15)))
    x = rnd.randint(-1, 13)
    lo = rnd.randint(0, len(a))
    hi = rnd.choice([None, -1, rnd.randint(lo, len(a)), rnd.randint(0, lo)])
    print(_bisect.bisect_left(a, x, lo, hi), _bisect.bisect_right(a, x, lo, hi),
          _bisect.bisect_left(a, x, lo=lo), _bisect.bisect_right(a, x, hi=hi),
          _bisect.bisect_left([(v, -v) for v in a], x, lo, hi, key=lambda p: p[0]),
          _bisect.bisect_right([str(v).zfill(2) for v in a], str(x).zfill(2), lo, hi))
    b = list(a)
    _bisect.insort_left(b, x, lo, hi)
    _bisect.insort_right(b, x + 0.5, key=lambda v: v)
    bisect.insort(b, x)
    print(b)

# comparisons: which items, in which order, how many
log = []
class V:
    def __init__(self, v): self.v = v
    def __lt__(self, o):
        log.append((self.v, o.v))
        return self.v < o.v
    def __repr__(self): return 'V(%r)' % self.v
vs = [V(i) for i in range(0, 40, 3)]
for x in (-1, 0, 9, 10, 39, 40):
    log.clear(); i = _bisect.bisect_left(vs, V(x)); print('left', x, i, log)
    log.clear(); i = _bisect.bisect_right(vs, V(x)); print('right', x, i, log)
keys = []
def key(v):
    keys.append(v)
    return v
lst = list(range(0, 100, 7))
_bisect.insort_right(lst, 50, key=key); print(lst, keys)
keys.clear(); print(_bisect.bisect_left(list(range(100)), 37, 10, 60, key=key), keys)
keys.clear(); _bisect.insort_left(lst, 50, 3, 9, key=key); print(lst, keys)
print(_bisect.bisect_right(['a', 'B', 'c', 'D'], 'b', key=str.lower), _bisect.bisect_left([], 3, key=len))
print(_bisect.bisect_left(list(range(10)), 5, key=None), _bisect.insort_left(lst, 1, key=None), lst)

# other sequences: read through the sequence protocol
class Seq:
    def __init__(self, n): self.n = n
    def __len__(self): return self.n
    def __getitem__(self, i):
        log.append(i)
        return i * 2
    def insert(self, i, x): log.append(('insert', i, x))
log.clear(); print(_bisect.bisect_left(Seq(50), 31), _bisect.bisect_right(Seq(50), 30, 5, 20), log)
log.clear(); bisect.insort(Seq(10), 7); _bisect.insort_left(Seq(10), 7, key=lambda v: v); print(log)
print(_bisect.bisect_left(range(0, 1000, 5), 333), _bisect.bisect_right((1, 2, 2, 3), 2), _bisect.bisect_left('abcdef', 'd'),
      _bisect.bisect_right(b'aceg', 100), _bisect.bisect_left(bytearray(b'aceg'), 101))

class L(list):
    def insert(self, i, x):
        print('L.insert', i, x)
        return super().insert(i, x)
l = L([1, 3, 5])
bisect.insort(l, 4); _bisect.insort_left(l, 0); print(l, type(l).__name__)
class G(list):
    def __getitem__(self, i):
        print('G[%r]' % i)
        return list.__getitem__(self, i)
    def __len__(self):
        print('len G')
        return list.__len__(self)
g = G([10, 20, 30, 40])
print(_bisect.bisect_left(g, 25), _bisect.bisect_right(g, 25, 1, 3))
bisect.insort(g, 25); print(g)
print(_bisect.bisect_left([1, 2, 3], 2, True), _bisect.bisect_left([1, 2, 3], 2, False, True))
class Idx:
    def __index__(self): return 2
print(_bisect.bisect_left([0, 1, 2, 3, 4], 3, Idx(), Idx()), _bisect.bisect_right([0, 1, 2, 3, 4], 3, hi=Idx()))

# a comparison that empties the list: IndexError from the next read
class Shrink:
    def __init__(self, target): self.target = target
    def __lt__(self, o):
        self.target.clear()
        return False
t = [1, 2, 3, 4, 5, 6, 7, 8]
show(lambda: _bisect.bisect_right(t, Shrink(t)))
t = [1, 2, 3, 4, 5, 6, 7, 8]
def shrinking_key(v):
    t.clear()
    return v
show(lambda: _bisect.bisect_left(t, 3, key=shrinking_key))

# errors
a = [1, 2, 3, 3, 5]
for f in [lambda: _bisect.bisect_left(a, 3, -1), lambda: _bisect.bisect_right(a, 3, lo=-5),
          lambda: _bisect.insort_left(a, 3, -1), lambda: _bisect.insort_right([], 3, -1, key=len),
          lambda: _bisect.bisect_left(a, 3, 0, -2), lambda: _bisect.bisect_left(a, 3, 0, 100),
          lambda: _bisect.bisect_left(a, 3, 3, 1), lambda: _bisect.bisect_left(a, 3, None),
          lambda: _bisect.bisect_left(a, 3, 1.0), lambda: _bisect.bisect_left(a, 3, '1'),
          lambda: _bisect.bisect_left(a, 3, 0, 1.0), lambda: _bisect.bisect_left(a, 3, 0, '3'),
          lambda: _bisect.bisect_left(a, 3, 2 ** 70), lambda: _bisect.bisect_left(a, 3, 0, 2 ** 70),
          lambda: _bisect.bisect_left(a, 3, -2 ** 70), lambda: _bisect.bisect_left(a, 3, 2 ** 62, 2 ** 63 - 1),
          lambda: _bisect.bisect_left(a, 3, 0, 2 ** 63 - 1),
          lambda: _bisect.bisect_left(5, 3), lambda: _bisect.bisect_left(5, 3, 0, 4),
          lambda: _bisect.bisect_left(None, 3), lambda: _bisect.bisect_left({1: 2}, 3),
          lambda: _bisect.bisect_left({1: 2}, 3, 0, 1), lambda: _bisect.bisect_left({1, 2}, 3),
          lambda: _bisect.bisect_left(iter([1, 2]), 3), lambda: _bisect.bisect_right(a, 'x'),
          lambda: _bisect.bisect_left([1, None], 0), lambda: _bisect.bisect_left(a, 1, key=5),
          lambda: _bisect.insort_left(a, 3, key=5), lambda: bisect.insort(5, 3),
          lambda: bisect.insort((1, 2), 3), lambda: _bisect.insort_left('ab', 'c'),
          lambda: _bisect.bisect_left(), lambda: _bisect.bisect_left(a),
          lambda: _bisect.bisect_left(a, 1, 2, 3, 4), lambda: _bisect.bisect_right(a, 1, 0, None, len),
          lambda: _bisect.bisect_left(a, 1, foo=None), lambda: bisect.insort(a, 1, x=2),
          lambda: _bisect.bisect_left(x=1), lambda: _bisect.bisect_right(a=a, x=4, lo=1, hi=3),
          lambda: _bisect.bisect_left(a, 1, lo=0, a=a), lambda: _bisect.bisect(a, 1),
          lambda: _bisect.bisect_left(a, 3, key=lambda v: 1 / 0),
          lambda: _bisect.insort_left(a, 3, key=lambda v: 1 / 0)]:
    show(f)
class BadLen:
    def __len__(self): raise KeyError('len')
    def __getitem__(self, i): return i
class BadGet:
    def __len__(self): return 3
    def __getitem__(self, i): raise IndexError('gone %d' % i)
class NoIns:
    def __len__(self): return 2
    def __getitem__(self, i): return i
class D(dict): pass
class DL(dict):
    def __len__(self): return 3
    def __getitem__(self, i): return i
for f in [lambda: _bisect.bisect_left(BadLen(), 3), lambda: _bisect.bisect_left(BadLen(), 3, 0, 3),
          lambda: _bisect.bisect_left(BadGet(), 3), lambda: _bisect.insort_left(NoIns(), 3),
          lambda: _bisect.bisect_left(D(), 1), lambda: _bisect.bisect_left(DL(), 1),
          lambda: _bisect.bisect_right(D(a=1), 1, 0, 1)]:
    show(f)
print(a)
