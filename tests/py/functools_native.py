# functools over the native _functools: partial (subclass, repr, pickle/copy,
# nested flattening, keywords merge, no method binding), reduce, cmp_to_key,
# lru_cache (hits/misses, typed, maxsize, cache_info, methods, recursion).
import copy
import functools
import pickle
import sys
from functools import partial, reduce, cmp_to_key, lru_cache


def show(*args, **kw):
    return args, sorted(kw.items())


def err(fn, *a, **k):
    try:
        r = fn(*a, **k)
        print("ok", r)
    except Exception as e:
        print(type(e).__name__, e)


print(type(partial).__name__, partial.__module__, partial.__name__, partial.__qualname__)
print(functools.partial is sys.modules["_functools"].partial)
print(functools.reduce is sys.modules["_functools"].reduce)
print(functools._lru_cache_wrapper.__module__, functools._lru_cache_wrapper.__name__)

# construction and calls
p = partial(show, 1, 2, a=3)
print(p(3, b=4), p(a=9), p.func is show, p.args, p.keywords)
err(partial)
err(partial, 1)
print(partial(show)())

# nested flattening and keywords merge
q = partial(p, 5, a=7, c=8)
print(q.func is show, q.args, q.keywords, q(6, c=0))
r = partial(q)
print(r.func is show, r.args, r.keywords)
# a partial with a __dict__ is not flattened
p2 = partial(show, 1)
p2.attr = "x"
print(partial(p2, 2).func is p2, partial(p2, 2)(3))

# attributes read-only, __dict__ usable
for name in ("func", "args", "keywords"):
    try:
        setattr(p, name, None)
    except AttributeError as e:
        print("AttributeError", name)
p.extra = 5
print(sorted(p.__dict__.items()))

# the keywords dict is the partial's own
kw = {"k": 1}
pk = partial(show, **kw)
kw["k"] = 2
print(pk())
pk.keywords["k"] = 3
print(pk())


# subclass
class MyPartial(partial):
    def extra(self):
        return "extra", self.args


mp = MyPartial(show, 1, x=2)
print(type(mp).__name__, mp.extra(), mp(2), isinstance(mp, partial))
print(repr(mp).replace(repr(show), "SHOW"))
flat = partial(mp, 3)
print(type(flat).__name__, flat.func is show, flat.args)


class CallOverride(partial):
    def __call__(self, *a):
        return "override", partial.__call__(self, *a)


co = CallOverride(show, 1)
print(co(2), partial(co, 2).func is co)


class NewOverride(partial):
    def __new__(cls, *a, **k):
        self = super().__new__(cls, *a, **k)
        self.made = True
        return self


no = NewOverride(show, 1)
print(no.made, no(2))

# repr, including recursion and keyword order
print(repr(partial(show, 1, "a", k=[1])).replace(repr(show), "SHOW"))
rec = partial(show)
rec.__setstate__((show, (), {}, None))
selfref = partial(show)
selfref.__setstate__((show, (selfref,), {"me": selfref}, None))
print(repr(selfref).replace(repr(show), "SHOW"))

# not a method: a partial in a class body is not bound
class A:
    meth = partial(show, "bound?")


print(A().meth(1), A.meth(2))

# pickle and copy
pp = partial(max, 1, key=abs)
pp.note = "n"
for proto in range(pickle.HIGHEST_PROTOCOL + 1):
    u = pickle.loads(pickle.dumps(pp, proto))
    print(proto, type(u).__name__, u.func is max, u.args, u.keywords, u.__dict__, u(-5))
c = copy.copy(pp)
print(c.func is max, c.args, c.keywords, c.__dict__)
d = copy.deepcopy(partial(show, [1], k=[2]))
print(d())
print(pp.__reduce__()[0] is partial, pp.__reduce__()[1:])

# __setstate__ checks
s = partial(show)
for state in [(show, (1,), {"a": 1}, {"z": 1}), (show, [1], None, None), (1, (), {}, None),
              (show, (), [], None), (show, (), {}), "x", (show, (), None, None)]:
    try:
        s.__setstate__(state)
        print("set", s.args, s.keywords, s.__dict__, s())
    except TypeError as e:
        print("TypeError", e)

# class_getitem
print(partial[int])

# reduce
print(reduce(lambda a, b: a + b, [1, 2, 3, 4]), reduce(lambda a, b: a * b, range(1, 6), 10))
print(reduce(lambda a, b: a + b, [], "init"), reduce(lambda a, b: a + b, ["only"]))
err(reduce, lambda a, b: a, [])
err(reduce, lambda a, b: a, 5)
err(reduce, lambda a, b: a)
err(reduce, lambda a, b: a, [1], 2, 3)
err(reduce, function=lambda a, b: a, iterable=[1])
err(reduce, lambda a, b: 1 / 0, [1, 2])


# cmp_to_key
def numeric_cmp(a, b):
    return (a > b) - (a < b)


print(sorted([5, 1, 4, 2, 3], key=cmp_to_key(numeric_cmp)))
print(sorted(["bb", "a", "ccc"], key=cmp_to_key(lambda a, b: len(b) - len(a))))
K = cmp_to_key(numeric_cmp)
k1, k2 = K(1), K(obj=2)
print(k1 < k2, k1 > k2, k1 == k2, k1 <= K(1), k1 != K(1), k2 >= k1, k1.obj, k2.obj)
print(type(K).__name__, type(k1).__name__, K.__hash__ is None if hasattr(K, "__hash__") else "nohash")
err(hash, k1)
err(lambda: k1 < 5)
err(K)
err(cmp_to_key)
print(cmp_to_key(mycmp=numeric_cmp)(3).obj)
k1.obj = 10
print(k1 > k2)

# lru_cache: hits, misses, cache_info, clear
calls = []


@lru_cache(maxsize=2)
def sq(x):
    calls.append(x)
    return x * x


print([sq(i) for i in (1, 2, 1, 3, 2, 1, 1)], calls, sq.cache_info())
print(sq.cache_parameters(), sq.__wrapped__.__name__, sq.__name__, sq.__doc__)
sq.cache_clear()
print(sq.cache_info())


@lru_cache(maxsize=None)
def ident(*a, **k):
    calls.append((a, tuple(sorted(k.items()))))
    return len(calls)


calls.clear()
print(ident(1), ident(1), ident(1.0), ident(x=1), ident(x=1), ident(1, x=1), ident.cache_info())


@lru_cache(typed=True)
def typed(x):
    return type(x).__name__


print(typed(1), typed(1.0), typed(True), typed("s"), typed.cache_info())


@lru_cache(maxsize=0)
def nocache(x):
    return x + 1


print(nocache(1), nocache(1), nocache.cache_info())


@lru_cache
def fib(n):
    return n if n < 2 else fib(n - 1) + fib(n - 2)


print(fib(80), fib.cache_info())

# unhashable arguments
err(ident, [1])


# hash once per call
class H:
    hashes = 0

    def __hash__(self):
        H.hashes += 1
        return 1

    def __eq__(self, other):
        return isinstance(other, H)


h = H()


@lru_cache(maxsize=4)
def takes(a, b):
    return 1


takes(h, 1)
takes(h, 1)
takes(h, 2)
print("hashes", H.hashes, takes.cache_info())


# methods
class C:
    def __init__(self, n):
        self.n = n

    @lru_cache(maxsize=None)
    def times(self, k):
        return self.n * k

    def __hash__(self):
        return self.n

    def __eq__(self, other):
        return self.n == other.n


c1, c2 = C(2), C(3)
print(c1.times(5), c2.times(5), c1.times(5), C.times(c1, 5), C.times.cache_info())
print(type(C.__dict__["times"]).__name__, type(c1.times).__name__)

# pickling and copying the wrapper
print(pickle.loads(pickle.dumps(fib)) is fib, copy.copy(fib) is fib, copy.deepcopy(fib) is fib)

# errors from the wrapper
err(functools._lru_cache_wrapper, 1, None, False, None)
err(functools._lru_cache_wrapper, show, "x", False, None)


@lru_cache(maxsize=3)
def boom(x):
    if x < 0:
        raise ValueError(x)
    return x


err(boom, -1)
err(boom, -1)
print(boom.cache_info())

# eviction order: the least recently used goes first
seen = []


@lru_cache(maxsize=3)
def tracked(x):
    seen.append(x)
    return x


for x in (1, 2, 3, 1, 4, 2, 1, 3):
    tracked(x)
print(seen, tracked.cache_info())

# typed with no arguments (an empty key), keyword order makes distinct keys
@lru_cache(typed=True)
def noargs():
    return "n"


print(noargs(), noargs(), noargs.cache_info())


@lru_cache(maxsize=None)
def kws(**k):
    return list(k)


print(kws(a=1, b=2), kws(b=2, a=1), kws(a=1, b=2), kws.cache_info())
