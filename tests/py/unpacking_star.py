def f(*args, **kw): return args, kw
print(f(*[1, 2], *(3,), **{"a": 1}, **{"b": 2}))
a, b, *c = range(5); print(a, b, c)
[x, [y, z]] = [1, [2, 3]]; print(x, y, z)
for i, (k, v) in enumerate({"a": 1, "b": 2}.items()):
    print(i, k, v)
print([*range(3), *"ab"], sorted({*"aab", "c"}), {**{"x": 1}, "y": 2}, (*[1], 2))
first, *_, last = "python"; print(first, last)
a = b = c = [0]; a.append(1); print(b, c is a)
x, y = y, x = 1, 2; print(x, y)
d = {}
d["k"], d["j"] = 1, 2; print(d)
lst = [0, 0, 0]; lst[0], lst[2] = "a", "c"; print(lst)
class O: pass
o = O(); o.a, o.b = 5, 6; print(o.a + o.b)
print(*[1, 2, 3], sep=",")
def g(a, b, c): return a + b + c
print(g(*"ab", "c"), g(**{"a": 1, "b": 2, "c": 3}), g(1, *[2], **{"c": 3}))
