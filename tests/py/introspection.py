class C:
    cls_attr = 1
    def __init__(self):
        self.inst = 2
    def method(self):
        pass
c = C()
print(vars(c), sorted(k for k in dir(c) if not k.startswith("__")), hasattr(c, "method"))
print(type(c).__name__, type(C.method).__name__, type(c.method).__name__, type(len).__name__, type(3).__name__)
print(callable(c), callable(C), callable(c.method), isinstance(c.method, object))
def f(a, b=2, *c, d, **e):
    "doc"
    return locals()
print(f(1, d=4), f.__name__, f.__doc__, f.__code__.co_argcount, f.__code__.co_name)
print(sorted(f.__code__.co_varnames)[:3], f.__defaults__)
import math
print(type(math).__name__, math.__name__, hasattr(math, "sqrt"), "sqrt" in dir(math))
print(isinstance(f, type(lambda: 0)), type(None).__name__, type(type).__name__, type(object).__name__)
print(int.__name__, str.__mro__, bool.__mro__, [t.__name__ for t in KeyError.__mro__])
