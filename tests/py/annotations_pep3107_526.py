# Annotations with 3.11 semantics (PEP 3107, PEP 526).
order = []
def note(x):
    order.append(x)
    return x

def f(a: note("a"), b: note("b") = note("default b"), /, c: note("c") = 1, *args: note("args"),
      d: note("d"), e=5, **kw: note("kw")) -> note("ret"):
    x: note("never evaluated in a function") = 3
    y: int
    return x
print(order)
print(f.__annotations__)
print(list(f.__annotations__))
def g(a, b=2): pass
print(g.__annotations__, g.__annotations__ is g.__annotations__)
g.__annotations__ = {'a': int}
print(g.__annotations__)
try:
    g.__annotations__ = 5
except TypeError as e:
    print("TypeError:", e)
g.__annotations__ = None
print(g.__annotations__)
del g.__annotations__
print(g.__annotations__)
print('__annotations__' in g.__dict__, g.__dict__)
print(f(1, d=2))
lam = lambda x: x
print(lam.__annotations__)

# module level
print(__annotations__)
m1: int = note("m1 value")
m2: note("m2 ann")
print(__annotations__)
try:
    m2
except NameError as e:
    print("NameError:", e)
class O:
    pass
o = O()
o.attr: note("attr ann") = 7
lst = [0, 1]
lst[note(1)]: note("sub ann") = 9
lst[note(0)]: note("sub ann 2")
(paren): note("paren ann") = 4
print(__annotations__, o.attr, lst, paren)
print(order[-12:])

class C:
    a: int
    b: str = "s"
    __private: float
    def m(self) -> "C": return self
print(C.__annotations__, C.b, 'a' in C.__dict__, C.m.__annotations__)
class D(C):
    pass
print(D.__annotations__, '__annotations__' in D.__dict__)
class E:
    if True:
        for i in range(1):
            inside_loop: list = []
    def meth(self, x: 'E') -> None:
        local: int = 3
        return local
print(E.__annotations__, E.meth.__annotations__, E().meth(1))
class NoAnn:
    x = 1
print('__annotations__' in NoAnn.__dict__, NoAnn.__annotations__)

# annotations evaluated in the enclosing scope; names mangled
def outer():
    T = list
    def inner(x: T, *, __y: T) -> T: pass
    return inner
print(outer().__annotations__)
class M:
    def meth(self, __p: int, *__a: str, **__k: bool): pass
print(M.meth.__annotations__)

# an annotation that raises at def time: nothing is bound
try:
    def bad(x: 1 / 0): pass
except ZeroDivisionError as e:
    print("ZeroDivisionError at def:", e)
print('bad' in globals())

# __prepare__ namespaces that are not dicts
class NS(dict):
    def __setitem__(self, k, v):
        print("set", k, type(v).__name__)
        super().__setitem__(k, v)
class Meta(type):
    @classmethod
    def __prepare__(mcls, name, bases):
        return NS()
class P(metaclass=Meta):
    z: int = 1
print(P.__annotations__)
# exec with annotations
ns = {}
exec("q: int = 1\nr: str\n", ns)
print(ns['__annotations__'], ns['q'])
ns = {}
exec("def h(a: int) -> str: pass", ns)
print(ns['h'].__annotations__)
