def f(a, b=2, *args, c, d=4, **kw):
    return (a, b, args, c, d, kw)
print(f(1, c=3))
print(f(1, 2, 3, 4, c=5, e=6))
print(f(*[1, 2], **{"c": 3, "z": 0}))
def g(a, /, b, *, c):
    return a + b + c
print(g(1, 2, c=3), g(1, b=2, c=3))
def h(*args, **kwargs):
    return args, kwargs
print(h(), h(1, x=2), h(*range(3), **dict(y=1)))
sq = lambda x: x * x
print(sq(5), (lambda *a: sum(a))(1, 2, 3), (lambda x, y=10: x + y)(1))
def outer():
    count = 0
    def inc():
        nonlocal count
        count += 1
        return count
    return inc
c = outer(); c(); c(); print(c())
def make_adders():
    return [lambda x, i=i: x + i for i in range(3)]
print([a(10) for a in make_adders()])
def fact(n):
    return 1 if n <= 1 else n * fact(n - 1)
print(fact(20), fact(30))
def doc():
    "A docstring."
    return doc.__doc__
print(doc(), doc.__name__, f.__defaults__, f.__kwdefaults__)
G = 1
def set_global():
    global G
    G = 99
set_global(); print(G)
def deco(fn):
    def wrapper(*a, **k):
        return "<" + str(fn(*a, **k)) + ">"
    return wrapper
@deco
@deco
def greet(name):
    return "hi " + name
print(greet("bob"))
def gen_closures():
    fs = []
    for i in range(3):
        def f(i=i):
            return i * 10
        fs.append(f)
    return [f() for f in fs]
print(gen_closures())
def kwonly(*, a=1, b):
    return a, b
print(kwonly(b=2))
print((lambda: (yield))) if False else print("ok")
