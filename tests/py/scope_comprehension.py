x = "outer"
lst = [x for x in range(3)]
print(x, lst)
funcs = [lambda: i for i in range(3)]
print([f() for f in funcs])
class K:
    y = 5
    z = [y for _ in range(2)] if False else None
    w = [i * 2 for i in range(3)]
print(K.w, K.z)
def f():
    n = 10
    return [n + i for i in range(3)], {i: n for i in range(2)}, list(n * j for j in range(2))
print(f())
print([(i, j) for i in range(3) if i for j in range(i)], [[j for j in range(i)] for i in range(3)])
total = 0
print([total := total + v for v in [1, 2, 3]], total)
