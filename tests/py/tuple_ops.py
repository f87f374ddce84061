t = (1, 2, 3)
print(t, t[0], t[-1], t[1:], len(t), t + (4,), t * 2, 2 in t, t.index(3), t.count(1))
a, b, c = t; print(a, b, c)
a, *rest = [1, 2, 3, 4]; print(a, rest)
*init, last = "abc"; print(init, last)
first, *mid, end = range(6); print(first, mid, end)
(x, y), z = (1, 2), 3; print(x, y, z)
print((), (1,), tuple([1, 2]), tuple("ab"), (1, 2) < (1, 3), (1, 2) == (1, 2), hash((1, 2)) == hash((1, 2)))
x, y = 1, 2
x, y = y, x
print(x, y)
nested = ((1, 2), (3, (4, 5)))
print(nested[1][1][0], sorted([(2, "b"), (1, "z"), (2, "a")]))
print(hash((1, 2, 3)), hash(()), hash(("a",)) == hash(("a",)))
