import functools
from functools import reduce, partial, lru_cache, wraps, cmp_to_key, total_ordering
print(reduce(lambda a, b: a * b, range(1, 6)), reduce(lambda a, b: a + b, [], 0))
add3 = partial(lambda a, b, c: a + b + c, 1, c=3); print(add3(2), add3.args, add3.keywords)
@lru_cache(maxsize=None)
def fib(n):
    return n if n < 2 else fib(n - 1) + fib(n - 2)
print(fib(100), fib.cache_info())
def logged(fn):
    @wraps(fn)
    def inner(*a):
        return fn(*a)
    return inner
@logged
def named():
    "named doc"
print(named.__name__, named.__doc__, named.__wrapped__ is not None)
print(sorted([5, 2, 8, 1], key=cmp_to_key(lambda a, b: b - a)))
@total_ordering
class Ver:
    def __init__(self, v): self.v = v
    def __eq__(self, o): return self.v == o.v
    def __lt__(self, o): return self.v < o.v
print(Ver(1) < Ver(2), Ver(2) >= Ver(1), Ver(3) <= Ver(1), Ver(2) > Ver(2))
@functools.cache
def sq(x):
    return x * x
print(sq(4), sq(4), sq.cache_info().hits)
