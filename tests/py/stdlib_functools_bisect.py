# CPython's functools and bisect (their pure-Python parts) on tmpy.
import bisect
import functools
from functools import (partial, partialmethod, reduce, lru_cache, cache, wraps, total_ordering,
                       cmp_to_key, cached_property, singledispatch, singledispatchmethod)

p = partial(int, base=2)
print(p("101"), p.func is int, p.args, p.keywords, repr(partial(max, 1, key=abs)))
pp = partial(p, "111")
print(pp(), pp.func is int)
print(reduce(lambda a, b: a * b, range(1, 6)), reduce(lambda a, b: a + b, [], 7))
try:
    reduce(max, [])
except TypeError as e:
    print("TypeError", e)

calls = []


@lru_cache(maxsize=2)
def sq(x):
    calls.append(x)
    return x * x


print([sq(i) for i in (1, 2, 1, 3, 1, 2)], calls, sq.cache_info())
sq.cache_clear()
print(sq.cache_info(), sq.__wrapped__(4), sq.cache_parameters())


@cache
def fib(n):
    return n if n < 2 else fib(n - 1) + fib(n - 2)


print(fib(80), fib.cache_info().hits > 0)


def deco(f):
    @wraps(f)
    def inner(*a):
        return f(*a)
    return inner


@deco
def documented():
    """doc here"""


print(documented.__name__, documented.__doc__, documented.__wrapped__.__name__)


@total_ordering
class V:
    def __init__(self, v):
        self.v = v

    def __eq__(self, o):
        return self.v == o.v

    def __lt__(self, o):
        return self.v < o.v


print(V(1) <= V(2), V(3) >= V(2), V(1) > V(2), sorted([3, 1, 2], key=cmp_to_key(lambda a, b: b - a)))


class C:
    def __init__(self):
        self.n = 0

    def add(self, a, b):
        return a + b

    add5 = partialmethod(add, 5)

    @cached_property
    def expensive(self):
        self.n += 1
        return self.n * 10



c = C()
print(c.expensive, c.expensive, c.n, c.add5(1))


@singledispatch
def kind(x):
    return "object"


@kind.register(int)
def _(x):
    return "int"


kind.register(list, lambda x: "list")


@kind.register
def _(x: float):
    return "float"


class M:
    @singledispatchmethod
    def f(self, x):
        return "base"

    @f.register(str)
    def _(self, x):
        return "str"


print(M().f(1), M().f("a"), kind(1.5))
print(kind(1), kind("s"), kind([1]), kind(True), sorted(t.__name__ for t in kind.registry))



a = [1, 2, 4, 4, 8]
print(bisect.bisect_left(a, 4), bisect.bisect_right(a, 4), bisect.bisect(a, 5), bisect.bisect_left(a, 4, 3))
bisect.insort(a, 5)
bisect.insort_left(a, 0)
print(a, bisect.bisect_left([("a", 1), ("b", 2)], 2, key=lambda t: t[1]))
rows = [(1, "x"), (3, "y")]
bisect.insort(rows, (2, "z"), key=lambda r: r[0])
print(rows)
try:
    bisect.bisect_left(a, 1, -1)
except ValueError as e:
    print("ValueError", e)
