# CPython's heapq.py and operator.py over the native _heapq and _operator:
# argument checks, list subclasses, the max-heap helpers merge/nlargest use,
# a comparison that changes the heap, and each operator function's result
# and message.
import heapq, operator

def show(f, *a):
    try:
        print(f.__name__, repr(f(*a)))
    except Exception as e:
        print(f.__name__, type(e).__name__, e)

for f in (heapq.heappush, heapq.heapreplace, heapq.heappushpop):
    show(f, (), 1)
    show(f, [], 1)
for f in (heapq.heappop, heapq.heapify, heapq._heappop_max, heapq._heapify_max):
    show(f, 5)
    show(f, [])
show(heapq._heapreplace_max, [], 1)

class L(list):
    pass
h = L([9, 4, 7, 1, 8, 2])
heapq.heapify(h)
print(type(h).__name__, h, heapq.heappop(h), heapq.heappushpop(h, 0), heapq.heapreplace(h, 6), h)
m = [3, 1, 4, 1, 5, 9, 2, 6]
heapq._heapify_max(m)
print(m, heapq._heappop_max(m), heapq._heapreplace_max(m, 0), m)
print(list(heapq.merge([5, 3, 1], [6, 4, 2], reverse=True)), heapq.nlargest(3, [5, 1, 8, 3, 9]))

class Shrinker:
    def __init__(self, v, heap): self.v, self.heap = v, heap
    def __lt__(self, o):
        self.heap.clear()
        return self.v < o.v
    def __repr__(self): return 'S%d' % self.v
heap = []
heap.extend(Shrinker(v, heap) for v in (5, 3))
show(heapq.heapify, heap)
heap2 = []
heap2.append(Shrinker(1, heap2))
show(heapq.heappush, heap2, Shrinker(0, heap2))
heap3 = [1]
class Odd:
    def __lt__(self, o): raise ValueError('no order')
show(heapq.heappushpop, heap3, Odd())
show(heapq.heappush, heap3, Odd())

for name in ('lt', 'le', 'eq', 'ne', 'ge', 'gt', 'add', 'sub', 'mul', 'truediv', 'floordiv', 'mod', 'pow',
             'lshift', 'rshift', 'and_', 'or_', 'xor', 'is_', 'is_not', 'contains', 'getitem',
             'iadd', 'isub', 'imul', 'itruediv', 'ifloordiv', 'imod', 'ipow', 'ilshift', 'irshift',
             'iand', 'ior', 'ixor', 'concat', 'iconcat', 'countOf', 'indexOf'):
    f = getattr(operator, name)
    for a, b in ((7, 3), ([1, 2], [2]), ('ab', 'b'), ({1: 2}, 1), (1.5, 0), (None, 2)):
        try:
            r = f(a, b)
        except Exception as e:
            r = '%s: %s' % (type(e).__name__, e)
        print(name, repr(a), repr(b), repr(r))
for name in ('neg', 'pos', 'inv', 'invert', 'not_', 'truth', 'index', 'abs', 'length_hint'):
    f = getattr(operator, name)
    for a in (5, -2.5, [], [0], 'x', 1j, True):
        try:
            r = f(a)
        except Exception as e:
            r = '%s: %s' % (type(e).__name__, e)
        print(name, repr(a), repr(r))
l = [1, 2, 3]
print(operator.iadd(l, [4]) is l, l, operator.setitem(l, 0, 9), operator.delitem(l, 1), l)
show(operator.setitem, (1,), 0, 2)
show(operator.delitem, {}, 'k')
show(operator.add, 1)
print(operator.itemgetter(1, 0)('ab'), operator.attrgetter('real', 'imag')(3j), operator.methodcaller('split', ',')('a,b'))
print(operator.__lt__ is operator.lt, operator.__iadd__ is operator.iadd, operator.add.__doc__)

# concat needs sequences (a __getitem__, not a dict); countOf/indexOf compare by identity or ==
class S:
    def __getitem__(self, i): return i
    def __add__(self, o): return 'added'
    def __iadd__(self, o): return 'iadded'
print(operator.concat(S(), S()), operator.iconcat(S(), [1]))
try: operator.concat(S(), 1)
except TypeError as e: print(e)
try: operator.concat([1], 1)
except TypeError as e: print(e)
try: operator.iconcat((1,), 1)
except TypeError as e: print(e)
print(operator.countOf([1, 1.0, True, 2], 1), operator.indexOf(iter('abc'), 'c'))
try: operator.indexOf([1], 2)
except ValueError as e: print(e)
