# functools behaviour, CPython's (the module's own code is tmpy's).
import functools
from functools import *
print(reduce(lambda a, b: a + b, [1, 2, 3]), reduce(lambda a, b: a * b, [], 7))
try: reduce(max, [])
except TypeError as e: print(e)  # __context__ differs until _functools is written in C
p = partial(partial(print, 1, sep='-'), 2, end='!\n'); p(3)
print(repr(partial(max, 1, key=abs)), p.args, p.keywords)
class P(partial): pass
print(repr(P(min, 3)))
def f(a: int, b: str = 'x') -> None:
    "doc"
@wraps(f)
def g(*a): return f(*a)
print(g.__name__, g.__doc__, g.__wrapped__ is f)
print(sorted([5, 1, 4], key=cmp_to_key(lambda a, b: b - a)))
K = cmp_to_key(lambda a, b: (a > b) - (a < b))
print(K(1) < K(2), K(1) > K(2), K(2) == K(2), K(1) <= K(1), K(3) >= K(4), K.__lt__.__name__)
try: hash(K(1))
except TypeError as e: print(type(e).__name__)  # CPython's C key type is functools.KeyWrapper
@total_ordering
class T:
    def __init__(self, v): self.v = v
    def __le__(self, o): print('le', end=' '); return self.v <= o.v
    def __eq__(self, o): print('eq', end=' '); return self.v == o.v
print(T(1) < T(2), T(2) > T(1), T(1) >= T(1), T.__gt__.__name__)
@total_ordering
class U:
    def __init__(self, v): self.v = v
    def __gt__(self, o): return NotImplemented if o is None else self.v > o.v
print(U(1) < U(2), U(1) <= U(1), U(3) >= U(2))
try: U(1) < None
except TypeError as e: print(e)
try:
    @total_ordering
    class V: pass
except ValueError as e: print(e)
@lru_cache(maxsize=2)
def sq(x): return x * x
print([sq(i) for i in (1, 2, 1, 3, 1, 2)], sq.cache_info())
sq.cache_clear(); print(sq.cache_info())
@lru_cache
def c2(x, y=1): return x + y
print(c2(1), c2(1), c2(1, y=1), c2(x=1), c2.cache_info(), c2.__name__)
@cache
def fib(n): return n if n < 2 else fib(n - 1) + fib(n - 2)
print(fib(50), fib.cache_info())
z = lru_cache(0)(lambda: 1); z(); z(); print(z.cache_info())
@lru_cache(typed=True)
def t(x): return type(x).__name__
print(t(1), t(1.0), t.cache_info())
try: lru_cache('x')
except TypeError as e: print(e)
class C:
    @cached_property
    def val(self):
        print('compute'); return 42
c = C(); print(c.val, c.val, C.val.attrname)
class S:
    __slots__ = ()
    @cached_property
    def v(self): return 1
try: S().v
except TypeError as e: print(e)
try:
    class D:
        a = b = cached_property(lambda s: 1)
except (TypeError, RuntimeError) as e: print(type(e).__name__, e)
@singledispatch
def show(x): return 'obj'
@show.register(int)
def _(x): return 'int'
@show.register(str)
def _(x): return "str"
print(show(1), show('a'), show(1.0), show(True), show.dispatch(bool).__name__)
try: show()
except TypeError as e: print(e)
