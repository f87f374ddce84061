# Containers whose items' __eq__/__lt__/__hash__/__index__/__iter__/__len__/
# __repr__ or a key function mutate the container being worked on: no crash,
# and CPython's results and errors (list, bytearray, deque, OrderedDict,
# defaultdict, dict, heapq, bisect, itertools, builtin iterators).
import collections
def t(label, f):
    try:
        r = f()
        print(label, 'ok', r)
    except BaseException as e:
        print(label, type(e).__name__, str(e)[:100])
def t_type(label, f):
    # OrderedDict's iterators are dict's: the error type is CPython's, its words differ
    try:
        print(label, 'ok', f())
    except Exception as e:
        print(label, type(e).__name__)


class M:
    """eq/lt/hash calls action on each call (up to times)."""
    def __init__(self, v, act=None, times=1, h=1):
        self.v, self.act, self.times, self.h = v, act, times, h
    def _a(self):
        if self.act and self.times > 0:
            self.times -= 1
            self.act()
    def __eq__(self, o):
        self._a(); return isinstance(o, M) and o.v == self.v
    def __lt__(self, o):
        self._a(); return self.v < (o.v if isinstance(o, M) else o)
    def __gt__(self, o):
        self._a(); return self.v > (o.v if isinstance(o, M) else o)
    def __hash__(self): return self.h
    def __repr__(self):
        self._a(); return 'M%r' % (self.v,)

l = []
l.extend([M(1, lambda: l.clear()), M(2), M(3)])
t('list index', lambda: l.index(M(3)))
l = [M(1, lambda: l.clear()), M(2), M(3)]
t('list count', lambda: l.count(M(3)))
l = [M(1, lambda: l.clear()), M(2), M(3)]
t('list remove', lambda: l.remove(M(3)))
l = [M(1, lambda: l.clear()), M(2), M(3)]
t('list contains', lambda: M(3) in l)
l = [M(1, lambda: l.extend(range(100))), M(2), M(3)]
t('list contains grow', lambda: M(3) in l)
l = [M(1, lambda: l.clear()), M(2), M(3)]
l2 = [M(1), M(2), M(3)]
t('list eq', lambda: l == l2)
l = [M(1, lambda: l2.clear()), M(2), M(3)]
l2 = [M(1), M(2), M(3)]
t('list eq other', lambda: l == l2)
l = [M(1, lambda: l.clear()), M(2), M(3)]
l2 = [M(1), M(2), M(4)]
t('list lt', lambda: l < l2)
l = [M(1, lambda: l2.clear(), times=5), M(2), M(3)]
l2 = [M(1), M(2), M(4)]
t('list lt other', lambda: l < l2)
t('list ge other', lambda: l >= l2)
l = [M(1, lambda: l.__setitem__(slice(None), [0])), M(2), M(3)]
t('list remove replace', lambda: l.remove(M(9)))
l = [M(1, lambda: l.clear()), M(2), M(3)]
t('tuple in list', lambda: (M(5),) in [(x,) for x in l])
print('end')

l = [M(i, None) for i in range(5)]
l[0].act = lambda: l.clear(); l[0].times = 10
t('sort clear', lambda: l.sort())
print(l)
l = [M(i, None) for i in range(5)]
l[0].act = lambda: l.append(1); l[0].times = 10
t('sort append', lambda: l.sort())
print(len(l))
l = list(range(10))
t('sort key clear', lambda: l.sort(key=lambda x: (l.clear(), x)[1]))
print(l)
l = list(range(10))
t('sort key append', lambda: l.sort(key=lambda x: (l.append(x), x)[1]))
print(l)
l = list(range(10))
t('sort key raise', lambda: l.sort(key=lambda x: 1/(x-5)))
print(l)
l = list(range(10))
def k(x):
    if x == 5: raise ValueError
    return -x
t('sort key raise partial', lambda: l.sort(key=k))
print(l)
l = [3, 1, 2]
t('sorted key clear', lambda: sorted(l, key=lambda x: (l.clear(), x)[1]))
l = [3, 1, 2]
t('min key clear', lambda: min(l, key=lambda x: (l.clear(), x)[1]))
l = [3, 1, 2]
t('max key append', lambda: max(l, key=lambda x: (l.append(0) if len(l) < 50 else None, x)[1]))
l = [M(3, lambda: l.clear()), M(1), M(2)]
t('min lt clear', lambda: min(l).v)
l = [M(3, lambda: l.clear(), 100), M(1), M(2)]
t('max gt clear', lambda: max(l).v)
l = [1, 2, 3]
t('sorted reverse key', lambda: sorted(l, key=lambda x: l.reverse() or x))
l = [M(i) for i in range(20)]
def bad():
    l[:] = [None]
l[3].act = bad; l[3].times = 100
t('sort None mixed', lambda: l.sort())
print(len(l))

l = [1, 2, 3]
t('init self', lambda: l.__init__(l))
print(l)
l = [1, 2, 3]
t('init iter self', lambda: l.__init__(iter(l)))
print(l)
l = [1, 2, 3]
t('init gen self', lambda: l.__init__(x for x in l))
print(l)
l = [1, 2, 3]
t('extend self', lambda: l.extend(l))
print(l)
l = [1, 2, 3]
t('extend iter self', lambda: l.extend(iter(l)) if False else 'skip')
l = [1, 2, 3]
t('extend reversed self', lambda: l.extend(reversed(l)))
print(l)
l = [1, 2, 3]
t('iadd self', lambda: l.__iadd__(l))
print(l)
l = [1, 2, 3]
t('setslice self', lambda: l.__setitem__(slice(1, 2), l))
print(l)
l = [1, 2, 3, 4]
t('setslice ext self', lambda: l.__setitem__(slice(None, None, 2), l[:2]))
print(l)
l = [1, 2, 3, 4]
t('setslice ext self2', lambda: l.__setitem__(slice(None, None, -1), l))
print(l)
l = [1, 2, 3]
t('insert self', lambda: l.insert(1, l))
print(l)
class G:
    def __iter__(self):
        l.clear(); return iter([7, 8])
l = [1, 2, 3]
t('setslice iter clears', lambda: l.__setitem__(slice(0, 3), G()))
print(l)
class LH:
    def __iter__(self): return iter([1, 2])
    def __len__(self):
        l.clear(); return 2
l = [1, 2, 3]
t('extend len clears', lambda: l.extend(LH()))
print(l)
class LH2:
    def __iter__(self): return iter([1, 2])
    def __length_hint__(self):
        l.extend(range(100)); return 2**40
l = [1, 2, 3]
t('extend hint', lambda: l.extend(LH2()))
print(len(l))
class LH3:
    def __iter__(self): return iter([1, 2])
    def __length_hint__(self): return -1
t('list hint -1', lambda: list(LH3()))
class LH4:
    def __iter__(self): return iter([1, 2])
    def __length_hint__(self): return 2**100
t('list hint huge', lambda: list(LH4()))
class LH5:
    def __iter__(self): return iter([1, 2])
    def __length_hint__(self): raise KeyError
t('list hint raise', lambda: list(LH5()))
class LH6:
    def __iter__(self): return iter([1, 2])
    def __len__(self): return 2**62
t('list len huge', lambda: list(LH6()))
t('tuple len huge', lambda: tuple(LH6()))
t('bytearray len huge', lambda: bytearray(LH6()))
t('set len huge', lambda: set(LH6()))
t('dict len huge', lambda: dict.fromkeys(LH6()))
t('str join len huge', lambda: ''.join(LH6()))
t('sorted len huge', lambda: sorted(LH6()))

class Idx:
    def __init__(self, act, v=1): self.act, self.v = act, v
    def __index__(self):
        self.act(); return self.v
l = [1, 2, 3]
t('getitem index clear', lambda: l[Idx(lambda: l.clear())])
l = [1, 2, 3]
t('setitem index clear', lambda: l.__setitem__(Idx(lambda: l.clear()), 5))
print(l)
l = [1, 2, 3]
t('delitem index clear', lambda: l.__delitem__(Idx(lambda: l.clear())))
l = [1, 2, 3]
t('pop index clear', lambda: l.pop(Idx(lambda: l.clear())))
l = [1, 2, 3]
t('insert index clear', lambda: l.insert(Idx(lambda: l.clear(), 2), 9))
print(l)
l = [1, 2, 3]
t('slice index clear', lambda: l[Idx(lambda: l.clear(), 0):Idx(lambda: None, 3)])
l = [1, 2, 3, 4, 5]
t('setslice index clear', lambda: l.__setitem__(slice(Idx(lambda: l.clear(), 0), 5, 2), [7, 8, 9]))
print(l)
l = [1, 2, 3, 4, 5]
t('delslice index clear', lambda: l.__delitem__(slice(Idx(lambda: l.clear(), 0), 5, 2)))
print(l)
l = [1, 2, 3]
t('index start clear', lambda: l.index(3, Idx(lambda: l.clear(), 0)))
l = [1, 2, 3]
t('mul index clear', lambda: l * Idx(lambda: l.clear(), 3))
l = [1, 2, 3]
def imul():
    global l
    l *= Idx(lambda: l.clear(), 3)
t('imul index clear', imul); print(l)
b = bytearray(b'abc')
t('ba getitem idx clear', lambda: b[Idx(lambda: b.clear())])
b = bytearray(b'abc')
t('ba setitem idx clear', lambda: b.__setitem__(Idx(lambda: b.clear()), 5))
b = bytearray(b'abc')
t('ba setitem val clear', lambda: b.__setitem__(1, Idx(lambda: b.clear(), 65)))
print(b)
b = bytearray(b'abc')
t('ba pop idx clear', lambda: b.pop(Idx(lambda: b.clear())))
b = bytearray(b'abc')
t('ba insert idx clear', lambda: b.insert(Idx(lambda: b.clear(), 5), 65))
print(b)
b = bytearray(b'abc')
t('ba insert val clear', lambda: b.insert(1, Idx(lambda: b.clear(), 65)))
print(b)
b = bytearray(b'abc')
t('ba append val clear', lambda: b.append(Idx(lambda: b.clear(), 65)))
print(b)
b = bytearray(b'abcdef')
t('ba setslice ext idx', lambda: b.__setitem__(slice(Idx(lambda: b.clear(), 0), 6, 2), b'xyz'))
print(b)
b = bytearray(b'abcdef')
t('ba setslice list idx', lambda: b.__setitem__(slice(0, 6, 2), [Idx(lambda: b.clear(), 65), 66, 67]))
print(b)
b = bytearray(b'abcdef')
t('ba extend idx', lambda: b.extend([Idx(lambda: b.clear(), 65), 66]))
print(b)
b = bytearray(b'abcdef')
t('ba extend self', lambda: b.extend(b))
print(b)
b = bytearray(b'abcdef')
t('ba setslice self', lambda: b.__setitem__(slice(1, 3), b))
print(b)
b = bytearray(b'abcdef')
# find/count/index/in take the buffer before the argument's __index__ runs in
# CPython: clearing it there reads freed memory, so these change it in place
t('ba in idx', lambda: Idx(lambda: b.__setitem__(0, 102), 97) in b)
b = bytearray(b'abcdef')
t('ba find idx', lambda: b.find(Idx(lambda: b.__setitem__(0, 102), 98)))
b = bytearray(b'abcdef')
t('ba count idx', lambda: b.count(Idx(lambda: b.__setitem__(0, 102), 98)))
b = bytearray(b'abcdef')
t('ba index idx', lambda: b.index(Idx(lambda: b.__setitem__(0, 102), 98)))
b = bytearray(b'abcdef')
t('ba remove idx', lambda: b.remove(Idx(lambda: b.clear(), 98)))
b = bytearray(b'abcdef')
t('ba find start idx', lambda: b.find(b'f', Idx(lambda: b.__setitem__(0, 102), 0)))
b = bytearray(b'abcdef')
t('ba split sep self', lambda: b.split(b))
b = bytearray(b'abcdef')
t('ba replace self', lambda: b.replace(b, b + b))
b = bytearray(b'ab' * 1000)
t('ba join self', lambda: len(b.join([b, b])))
b = bytearray(b'abc')
t('ba mul idx', lambda: b * Idx(lambda: b.clear(), 3))
b = bytearray(b'ab' * 10)
t('ba center fill', lambda: b.center(Idx(lambda: b.clear(), 30)))
b = bytearray(b'ab' * 10)
t('ba translate', lambda: b.translate(b'x'*256, b))
t('bytes from idx list', lambda: bytes([Idx(lambda: None, 300)]))

d = collections.deque([M(1, lambda: d.clear()), M(2), M(3)])
t('deque index', lambda: d.index(M(3)))
d = collections.deque([M(1, lambda: d.clear()), M(2), M(3)])
t('deque count', lambda: d.count(M(3)))
d = collections.deque([M(1, lambda: d.clear()), M(2), M(3)])
t('deque remove', lambda: d.remove(M(3)))
d = collections.deque([M(1, lambda: d.clear()), M(2), M(3)])
t('deque contains', lambda: M(3) in d)
d = collections.deque([M(1, lambda: d.append(9)), M(2), M(3)])
t('deque contains append', lambda: M(3) in d)
d = collections.deque([M(1, lambda: d.append(9)), M(2), M(3)])
t('deque count append', lambda: d.count(M(3)))
d = collections.deque([M(1, lambda: d.rotate(1)), M(2), M(3)])
t('deque index rotate', lambda: d.index(M(3)))
d = collections.deque([M(1, lambda: d.clear()), M(2), M(3)])
d2 = collections.deque([M(1), M(2), M(3)])
t('deque eq', lambda: d == d2)
d = collections.deque([M(1, lambda: d.clear()), M(2), M(3)])
t('deque lt', lambda: d < collections.deque([M(1), M(5)]))
d = collections.deque([1, 2, 3])
t('deque extend self', lambda: d.extend(d)); print(d)
d = collections.deque([1, 2, 3])
t('deque extendleft self', lambda: d.extendleft(d)); print(d)
d = collections.deque([1, 2, 3])
t('deque iadd self', lambda: d.__iadd__(d)); print(d)
d = collections.deque([1, 2, 3], maxlen=4)
t('deque extend self maxlen', lambda: d.extend(d)); print(d)
d = collections.deque([1, 2, 3])
def it():
    for x in d:
        d.append(x)
t('deque iter mutate', it)
d = collections.deque([1, 2, 3])
def it2():
    for x in reversed(d):
        d.pop()
t('deque reversed mutate', it2)
d = collections.deque([1, 2, 3])
def it3():
    for x in d:
        d.rotate(1)
t('deque iter rotate', it3)
d = collections.deque([1, 2, 3])
class R:
    def __repr__(self):
        d.clear(); return 'R'
d.append(R())
t('deque repr mutate', lambda: repr(d))
d = collections.deque([1])
d.append(d)
t('deque repr rec', lambda: repr(d))
d = collections.deque([M(1, lambda: d.clear())])
t('deque insert', lambda: d.insert(Idx(lambda: d.clear(), 5), 1) if 'Idx' in globals() else d.insert(0, 1))
d = collections.deque(range(10))
t('deque getitem', lambda: d[5])
t('deque del', lambda: d.__delitem__(-1)); print(d)
d = collections.deque([M(i, lambda: d.clear()) for i in range(3)])
t('deque sorted', lambda: sorted(d))
d = collections.deque([M(i) for i in range(3)])
d[0].act = lambda: d.extend(range(1000))
t('deque remove grow', lambda: d.remove(M(2)))
print(len(d))
d = collections.deque([M(i) for i in range(3)], maxlen=3)
d[0].act = lambda: d.append(M(2))
t('deque remove maxlen', lambda: d.remove(M(2)))
print(d)
d = collections.deque([M(0)])
d[0].act = lambda: d.clear()
t('deque setitem M', lambda: d.__setitem__(0, 1))
t('deque copy', lambda: d.copy())
d = collections.deque(range(5))
t('deque mul self', lambda: d * 2)
d = collections.deque(range(5))
def dimul():
    global d
    d *= 2
t('deque imul', dimul); print(d)
d = collections.deque(range(5), maxlen=7)
t('deque imul maxlen', dimul); print(d)

od = collections.OrderedDict()
od[M(1, lambda: od.clear())] = 1
t('od setitem', lambda: od.__setitem__(M(2), 2)); print(list(od.items()))
od = collections.OrderedDict()
od[M(1, lambda: od.clear())] = 1
t('od getitem', lambda: od[M(2)])
od = collections.OrderedDict()
od[M(1, lambda: od.clear())] = 1
t('od setdefault', lambda: od.setdefault(M(2), 5)); print(list(od.items()))
od = collections.OrderedDict()
od[M(1, lambda: od.popitem())] = 1
od['x'] = 1
t('od setitem popitem', lambda: od.__setitem__(M(2), 2)); print(list(od.items()))
od = collections.OrderedDict([(1, 1), (2, 2)])
def oit():
    for k in od:
        od[k + 10] = 0
t_type('od iter add', oit)
od = collections.OrderedDict([(1, 1), (2, 2)])
def oit2():
    for k in od:
        od.move_to_end(k)
t_type('od iter move', oit2)
od = collections.OrderedDict([(1, 1), (2, 2)])
def oit3():
    for k in od:
        del od[k]; od[k] = 1
t_type('od iter del add', oit3)
od = collections.OrderedDict([(1, 1), (2, 2)])
def oit4():
    for k in reversed(od):
        od.popitem()
t_type('od reversed pop', oit4)
od = collections.OrderedDict([(1, 1), (2, 2)])
def oit5():
    for k, v in od.items():
        od.clear()
t_type('od items clear', oit5)
od = collections.OrderedDict([(1, M(1, lambda: od2.clear())), (2, 2)])
od2 = collections.OrderedDict([(1, M(1)), (2, 2)])
t('od eq', lambda: od == od2)
od = collections.OrderedDict()
od[1] = od
t('od repr rec', lambda: repr(od))
class RR:
    def __repr__(self):
        od.clear(); return 'RR'
od = collections.OrderedDict([(1, RR()), (2, 2), (3, 3)])
t('od repr mutate', lambda: repr(od))
od = collections.OrderedDict([(1, 1)])
t('od update self', lambda: od.update(od)); print(od)
od = collections.OrderedDict([(M(1, lambda: od.clear()), 1)])
t('od contains', lambda: M(2) in od)
od = collections.OrderedDict([(M(1, lambda: od.clear()), 1)])
t('od get', lambda: od.get(M(2)))

dd = collections.defaultdict(list)
dd[M(1, lambda: dd.clear())] = 1
t('dd missing', lambda: dd[M(2)]); print(len(dd))
def fac():
    dd.clear(); dd.update({i: i for i in range(20)}); return 'f'
dd = collections.defaultdict(fac)
t('dd factory mutates', lambda: dd['k']); print(len(dd), dd['k'])
def fac2():
    dd['k'] = 'inner'; return 'outer'
dd = collections.defaultdict(fac2)
t('dd factory sets key', lambda: dd['k']); print(dd['k'])
def fac3():
    raise KeyError('x')
dd = collections.defaultdict(fac3)
t('dd factory raises', lambda: dd['k'])
dd = collections.defaultdict(list)
dd[1] = dd
t('dd repr rec', lambda: repr(dd))
dd = collections.defaultdict(None)
t('dd none', lambda: dd[1])
class DFR:
    def __repr__(self):
        dd.clear(); return 'DFR'
    def __call__(self): return 0
dd = collections.defaultdict(DFR(), {1: 2})
t('dd repr factory', lambda: repr(dd))
dd = collections.defaultdict(int)

d = {}
class KK:
    def __hash__(self):
        d.clear(); return 1
t('dict hash clears', lambda: d.__setitem__(KK(), 1)); print(len(d))
d = {i: i for i in range(10)}
class MK:
    def keys(self):
        return [1, 2, 3]
    def __getitem__(self, k):
        d.clear(); return k
t('dict update mapping', lambda: d.update(MK())); print(d)
class MK2:
    def keys(self):
        return iter(range(100))
    def __getitem__(self, k):
        return k
t('dict(mapping)', lambda: len(dict(MK2())))
class SelfMut(dict):
    def keys(self):
        self[99] = 1
        return super().keys()
t('dict from self-mutating mapping', lambda: dict(SelfMut({1: 1})))
class SM2(dict):
    def __getitem__(self, k):
        self.clear(); return k
t('dict from sm2', lambda: dict(SM2({1: 1, 2: 2})))
src = {1: 1, 2: 2}
class K3:
    def __hash__(self): return 1
    def __eq__(self, o):
        src.clear(); return False
src = {K3(): 1, 2: 2}
dst = {K3(): 0}
t('dict update clearing src', lambda: dst.update(src)); print(len(dst))
d = {1: 1, 2: 2}
t('dict fromkeys self', lambda: dict.fromkeys(d))
d = {1: 1, 2: 2}
def dfk():
    for k in d:
        d.update({k: 5})
t('dict iter update same keys', dfk)
d = {1: 1, 2: 2}
def dfk2():
    for k in d.values():
        d.pop(1); d[1] = 1
t('dict iter pop readd', dfk2)
d = {}
d[1] = d
t('dict repr rec', lambda: repr(d))
l = []
l.append(l)
t('list repr rec', lambda: repr(l))
s = set()
t('set repr', lambda: repr({frozenset([1])}))
d = {1: 2}
t('dict or self', lambda: d | d)
d = {1: 2}
def dior():
    global d
    d |= d
t('dict ior', dior)
d = {M(1, lambda: d.clear()): 1}
t('dict copy', lambda: d.copy())
d = {M(1, lambda: d.clear(), times=10): 1, M(2, None, h=1): 2}
t('dict eq self', lambda: d == dict(d))
t('dict values eq', lambda: d.values() == d.values())
d = {1: 2, 3: 4}
t('dict items in', lambda: (1, M(2, lambda: d.clear())) in d.items())
d = {1: M(2, lambda: d.clear()), 3: 4}
t('dict items in2', lambda: (1, M(2)) in d.items())
d = {1: M(2, lambda: d.clear()), 3: 4}
t('dict items sub', lambda: d.items() - {(1, M(2)), (3, 4)})
d = {1: M(2, lambda: d.clear()), 3: 4}
t('dict items xor', lambda: d.items() ^ {(1, M(2)), (3, 4)})
d = {1: M(2, lambda: d.clear(), 5), 3: 4}
t('dict items eq', lambda: d.items() == {(1, M(2)), (3, 4)})

import heapq, bisect
h = [M(i) for i in range(10)]
h[3].act = lambda: h.clear(); h[3].times = 100
t('heappush clear', lambda: heapq.heappush(h, M(-1)))
h = [M(i) for i in range(10)]
h[3].act = lambda: h.clear(); h[3].times = 100
t('heappop clear', lambda: heapq.heappop(h))
h = [M(i) for i in range(10)]
h[3].act = lambda: h.clear(); h[3].times = 100
t('heapify clear', lambda: heapq.heapify(h))
h = [M(i) for i in range(10)]
h[3].act = lambda: h.clear(); h[3].times = 100
t('heapreplace clear', lambda: heapq.heapreplace(h, M(5)))
b = [M(i) for i in range(10)]
b[5].act = lambda: b.clear(); b[5].times = 100
t('bisect clear', lambda: bisect.bisect(b, M(7)))
b = [M(i) for i in range(10)]
b[5].act = lambda: b.clear(); b[5].times = 100
t('insort clear', lambda: bisect.insort(b, M(7)))
t('bisect hi huge', lambda: bisect.bisect([1, 2], 1, 0, 2**62))
t('bisect lo neg', lambda: bisect.bisect([1, 2], 1, -1))

import itertools
l = [1, 2, 3]
def cyc():
    out = []
    for x in itertools.islice(itertools.cycle(l), 10):
        l.clear(); out.append(x)
    return out
t('cycle clear', cyc)
l = [1, 2, 3]
def ch():
    out = []
    for x in itertools.chain(l, l):
        if len(l) < 10: l.append(x)
        out.append(x)
    return len(out)
t('chain grow', ch)
l = [3, 1, 2]
t('groupby mutate', lambda: [k for k, g in itertools.groupby(l, key=lambda x: l.clear() or x)])
l = [1, 2, 3]
t('zip self mutate', lambda: list(zip(l, (l.append(i) for i in range(3)))))
l = [1, 2, 3]
t('enumerate mutate', lambda: [l.pop() for i, x in enumerate(l)])
l = [1, 2, 3]
t('reversed mutate', lambda: [l.clear() or x for x in reversed(l)])
l = [1, 2, 3, 4]
t('reversed grow', lambda: [l.append(x) or x for x in reversed(l)])
l = [1, 2, 3]
t('map mutate', lambda: list(map(lambda x: l.clear() or x, l)))
l = [1, 2, 3]
t('filter mutate', lambda: list(filter(lambda x: l.clear() or x, l)))
l = [1, 2, 3]
t('sum mutate', lambda: sum(M(0, lambda: l.clear()) and x for x in l))
l = [1, 2, 3]
t('any', lambda: any(l.clear() for x in l))
t('accumulate', lambda: list(itertools.accumulate(l)))
l = [1, 2, 3]
t('tee', lambda: list(itertools.tee(l)[0]))
l = [1, 2, 3]
t('product mutate', lambda: list(itertools.product(l, (l.append(5) for _ in range(2)))))
l = [1, 2, 3]
t('starmap', lambda: list(itertools.starmap(lambda a, b: a, [(l, l)])) and 1)
s = {1, 2, 3}
def sit():
    for x in s:
        s.discard(x); s.add(x + 100)
t('set iter same size', sit)
l = [1, 2, 3]
t('list iter set', lambda: [l.__setitem__(0, 9) or x for x in l])

