import functools
def repeat(n):
    def deco(fn):
        @functools.wraps(fn)
        def wrapper(*a, **k):
            return [fn(*a, **k) for _ in range(n)]
        return wrapper
    return deco
@repeat(3)
def hello(name):
    return "hi " + name
print(hello("x"), hello.__name__)
calls = []
def trace(fn):
    def w(*a):
        calls.append(fn.__name__)
        return fn(*a)
    return w
@trace
def fib(n):
    return n if n < 2 else fib(n - 1) + fib(n - 2)
print(fib(6), len(calls))
def add_method(cls):
    cls.extra = lambda self: "extra!"
    return cls
@add_method
class K:
    pass
print(K().extra())
class CountCalls:
    def __init__(self, fn):
        self.fn = fn
        self.n = 0
    def __call__(self, *a):
        self.n += 1
        return self.fn(*a)
@CountCalls
def sq(x):
    return x * x
print(sq(3), sq(4), sq.n)
def memo(fn):
    cache = {}
    def w(n):
        if n not in cache:
            cache[n] = fn(n)
        return cache[n]
    return w
@memo
def slow(n):
    return n if n < 2 else slow(n - 1) + slow(n - 2)
print(slow(90))
