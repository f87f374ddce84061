# operator.itemgetter / attrgetter / methodcaller (C types in _operator):
# results, several keys, dotted names, repr, pickling, copying, errors.
import copy
import operator
import pickle
from operator import attrgetter, itemgetter, methodcaller

print(type(itemgetter(1)).__module__, type(itemgetter(1)).__name__, type(attrgetter('a')).__qualname__)
data = [(3, 'c', 1.5), (1, 'a', 2.5), (2, 'b', 0.5), (1, 'z', 0.0)]
print(sorted(data, key=itemgetter(1, 0)))
print(sorted(data, key=itemgetter(2)), list(map(itemgetter(-1), data)))
print(itemgetter('k', 'j')({'k': 1, 'j': 2}), itemgetter(slice(1, 3))('abcd'), itemgetter(0)([9]))
print(itemgetter(1)(range(5)), itemgetter(0, 0)((7,)))


class Inner:
    def __init__(self, b):
        self.b = b
        self.c = Inner(b * 2) if b < 4 else None

    def scaled(self, k, offset=0):
        return self.b * k + offset


class Outer:
    def __init__(self, b):
        self.a = Inner(b)
        self.name = 'o%d' % b


objs = [Outer(3), Outer(1), Outer(2)]
print([o.name for o in sorted(objs, key=attrgetter('a.b'))])
print(attrgetter('name', 'a.b', 'a.c.b')(objs[0]), attrgetter('a.c.c')(objs[1]) is not None)
print([methodcaller('scaled', 10)(o.a) for o in objs], methodcaller('scaled', 2, offset=1)(objs[0].a))
print(methodcaller('upper')('abc'), methodcaller('split', ',', maxsplit=1)('a,b,c'))
print(sorted(['b', 'C', 'a'], key=methodcaller('lower')))

# repr
print(repr(itemgetter(1)), repr(itemgetter(1, 'x')), repr(itemgetter((1, 2))))
print(repr(attrgetter('a')), repr(attrgetter('a.b', 'c')))
print(repr(methodcaller('f')), repr(methodcaller('f', 1, 'x', k=[2], z=None)))
ig = itemgetter(0)
ig2 = itemgetter(ig)
print(repr(ig2))

# pickling and copying
for g in (itemgetter(1), itemgetter(2, 0), attrgetter('name'), attrgetter('a.b', 'name'),
          methodcaller('scaled', 3), methodcaller('scaled', 3, offset=5), methodcaller('upper')):
    for proto in range(pickle.HIGHEST_PROTOCOL + 1):
        g2 = pickle.loads(pickle.dumps(g, proto))
        assert repr(g2) == repr(g), (g, g2)
    g3 = copy.copy(g)
    g4 = copy.deepcopy(g)
    target = data[0] if isinstance(g, itemgetter) else objs[0] if isinstance(g, attrgetter) else \
        ('abc' if 'upper' in repr(g) else objs[0].a)
    print(repr(g2), g2(target) == g(target) == g3(target) == g4(target))
print(itemgetter(1).__reduce__(), attrgetter('a.b').__reduce__())
print(methodcaller('f', 1).__reduce__())
r = methodcaller('f', 1, k=2).__reduce__()
print(type(r[0]).__name__, r[0].func is methodcaller, r[0].args, r[0].keywords, r[1])

# errors, as CPython's
def err(f):
    try:
        f()
    except Exception as e:
        print(type(e).__name__, e)


err(lambda: itemgetter())
err(lambda: itemgetter(a=1))
err(lambda: itemgetter(1)())
err(lambda: itemgetter(1)([1], [2]))
err(lambda: itemgetter(1)(x=1))
err(lambda: itemgetter(5)([1]))
err(lambda: itemgetter('k')({}))
err(lambda: itemgetter(0)(5))
err(lambda: attrgetter())
err(lambda: attrgetter(1))
err(lambda: attrgetter('a', 2))
err(lambda: attrgetter('a')())
err(lambda: attrgetter('a.zz')(objs[0]))
err(lambda: attrgetter('nope')(objs[0]))
err(lambda: methodcaller())
err(lambda: methodcaller(1))
err(lambda: methodcaller('f')())
err(lambda: methodcaller('nope')(objs[0]))
err(lambda: methodcaller('scaled')(objs[0].a))
err(lambda: methodcaller('upper', 1)('a'))


class E(Exception):
    pass


class Raises:
    def __getitem__(self, k):
        raise E(k)

    def __getattr__(self, name):
        raise E(name)


err(lambda: itemgetter(1, 2)(Raises()))
err(lambda: attrgetter('x.y')(Raises()))
for t in (itemgetter, attrgetter, methodcaller):
    try:
        class Sub(t):
            pass
    except TypeError as e:
        print('TypeError', e)
print(operator.itemgetter is itemgetter, callable(itemgetter(1)))
# a getter shared by threads
import threading
g = itemgetter(1, 0)
out = []
ts = [threading.Thread(target=lambda: out.append(sorted(data * 50, key=g)[:2])) for _ in range(3)]
for t in ts:
    t.start()
for t in ts:
    t.join()
print(len(out), out[0] == out[1] == out[2], out[0])
