compose = lambda f, g: lambda x: f(g(x))
inc = lambda x: x + 1
dbl = lambda x: x * 2
print(compose(inc, dbl)(5), compose(dbl, inc)(5))
print(list(map(lambda x, y: x * y, [1, 2, 3], [4, 5, 6])), list(filter(lambda s: len(s) > 2, ["a", "abc", "de", "xyz"])))
from functools import reduce
print(reduce(lambda acc, x: acc + [acc[-1] + x], [1, 2, 3, 4], [0]))
curry = lambda a: lambda b: lambda c: a + b + c
print(curry(1)(2)(3), (lambda: "no args")(), (lambda *a, **k: (a, k))(1, z=2))
fs = {name: (lambda n: lambda x: x ** n)(p) for name, p in [("sq", 2), ("cube", 3)]}
print(fs["sq"](4), fs["cube"](2))
print(sorted(["b10", "a2", "c1"], key=lambda s: int(s[1:])), max(["x", "yyy", "zz"], key=lambda s: len(s)))
Y = lambda f: (lambda x: f(lambda v: x(x)(v)))(lambda x: f(lambda v: x(x)(v)))
fact = Y(lambda self: lambda n: 1 if n == 0 else n * self(n - 1))
print(fact(10))
