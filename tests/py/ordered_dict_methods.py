# OrderedDict's pop/setdefault (default by keyword), __reduce__, | and |= as CPython's.
import copy
import pickle
from collections import OrderedDict

od = OrderedDict([('c', 1), ('b', 2), ('a', 3)])
print(od.pop('b'), od.pop('zz', default=7), od.setdefault('d', default=4), od.setdefault('c'))
try:
    od.pop('zz')
except KeyError as e:
    print('KeyError', e)


class Missing(OrderedDict):
    def __missing__(self, key):
        return 0


m = Missing(a=1)
print(m.pop('b', 5), m.pop('a', 6), m.pop('a', default=6))
print(od.__reduce__()[:4], list(od.__reduce__()[4]))
od.x = 10
print(od.__reduce__()[2])


class S(OrderedDict):
    __slots__ = ('p', 'q')


s = S(a=1)
s.p = 5
print(s.__reduce__()[2])
for proto in range(pickle.HIGHEST_PROTOCOL + 1):
    d = pickle.loads(pickle.dumps(s, proto))
    print(type(d).__name__, list(d.items()), d.p, hasattr(d, 'q'))
r = OrderedDict()
r[1] = r
print(pickle.loads(pickle.dumps(r))[1] is not None, copy.deepcopy(od) == od)
a = OrderedDict(x=1, y=2)
b = OrderedDict(y=3, z=4)
print(a | b, type(a | b).__name__, {'q': 0} | a, type({'q': 0} | a).__name__)
a |= {'w': 9}
print(a)
print(a.__or__(1), a.__ror__(1))
