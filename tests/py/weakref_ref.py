# weakref.ref / proxy: cleared when the referent is collected (gc.collect()
# makes it deterministic), callbacks, hash/eq, subclasses, which objects can
# be weakly referenced.
import gc
import weakref


class A:
    def __init__(self, n):
        self.n = n

    def m(self):
        return self.n * 2

    def __repr__(self):
        return "A(%d)" % self.n


log = []
a = A(1)
r = weakref.ref(a)
print(r() is a, r().n, r.__callback__)
r2 = weakref.ref(a, lambda w: log.append(("cb", w is r2, w())))
print(r2.__callback__ is not None)
print(r == r2, r != r2, hash(r) == hash(a))
del a
gc.collect()
print(r(), r2(), log, r2.__callback__)
print(r == r2, r == r, hash(r) is not None)   # dead: identity, cached hash
b = A(2)
rb = weakref.ref(b)
del b
gc.collect()
try:
    hash(rb)
except TypeError as e:
    print("TypeError:", e)

# what can be weakly referenced (as CPython)
for v in [1, 2 ** 70, 1.5, "s", b"b", (), [], {}, None, True, object(), range(3), bytearray()]:
    try:
        weakref.ref(v)
        print("yes", type(v).__name__)
    except TypeError as e:
        print(e)


def f():
    pass


def g():
    yield 1


class Slots:
    __slots__ = ("x",)


class SlotsWeak:
    __slots__ = ("x", "__weakref__")


class SubSlots(A):
    __slots__ = ("y",)


class E(Exception):
    pass


class L(list):
    pass


for v in [f, g(), A, int, {1}, frozenset([2]), A(3).m, f.__code__, gc, SlotsWeak(), SubSlots(4), E(), L(),
          Slots(), Exception(), len]:
    try:
        weakref.ref(v)
        print("yes", type(v).__name__)
    except TypeError as e:
        print(e)

# callbacks: each once, with the weak reference; several refs, one object
log.clear()
c = A(5)
refs = [weakref.ref(c, lambda w, i=i: log.append(i)) for i in range(4)]
del c
gc.collect()
print(sorted(log), [x() for x in refs])
gc.collect()
print(sorted(log))

# a callback that raises: reported, the others still run
log.clear()
d = A(6)


def bad(w):
    raise RuntimeError("callback failed")


rd1 = weakref.ref(d, bad)
rd2 = weakref.ref(d, lambda w: log.append("second"))
del d
gc.collect()
print(log)


# subclass of ref: callbacks receive the subclass instance
class KRef(weakref.ref):
    __slots__ = ("key",)

    def __new__(cls, ob, cb, key):
        self = super().__new__(cls, ob, cb)
        self.key = key
        return self

    def __init__(self, ob, cb, key):
        super().__init__(ob, cb)


seen = []
e = A(7)
k = KRef(e, lambda w: seen.append((type(w).__name__, w.key)), "k7")
print(type(k).__name__, k.key, k() is e, isinstance(k, weakref.ref))
del e
gc.collect()
print(seen, k())

# proxies
o = A(8)
p = weakref.proxy(o)
print(p.n, p.m(), str(p), type(p) is weakref.ProxyType)
p.n = 9
print(o.n, getattr(p, "n"))
cp = weakref.proxy(f)
print(type(cp) is weakref.CallableProxyType, cp())
lst_owner = L([1, 2, 3])
lp = weakref.proxy(lst_owner)
print(len(lp), lp[1], 2 in lp, list(lp), lp + [4], bool(lp))
try:
    hash(p)
except TypeError as e:
    print(e)
del o
gc.collect()
try:
    p.n
except ReferenceError as e:
    print("ReferenceError:", e)
print(weakref.getweakrefcount(lst_owner), len(weakref.getweakrefs(lst_owner)))
print(weakref.getweakrefcount(1), weakref.getweakrefs(1))
print(weakref.ref.__name__, weakref.ReferenceType is weakref.ref)
print(repr(weakref.ref).startswith("<class 'weakref.ReferenceType'"))
