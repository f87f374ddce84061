a = [1, 2, 3]
a.insert(-1, "x"); a.insert(100, "end"); a.insert(-100, "start"); print(a)
print(a.pop(-2), a.pop(1), a, a.index("x"), a.count(3))
b = a[:]; b.extend(range(3)); b.extend("ab"); print(b)
b.sort(key=str); print(b)
c = [3, 1, 2]; c.sort(reverse=True); print(c, c.reverse(), c)
print([1, 2, 3] * 0, [[]] * 2, list(range(3)) + list("ab"), [1, 2] == [1, 2.0], [1, [2]] < [1, [3]])
d = [5, 3, 8]; d[len(d):] = [9, 10]; d[:0] = [0]; print(d)
e = list(range(10)); del e[2:8:2]; print(e); del e[:]; print(e)
f = [1, 2, 3, 4, 5]; f[1:4] = []; print(f); f[1:1] = [7, 8]; print(f)
print(list(map(list, zip([1, 2], [3, 4]))), [x for x in [1, 2, 3] if x != 2], sum([[1], [2, 3]], []))
g = [3, 1, 2]; print(sorted(g), g, min(g), max(g), g.index(2), len(g), g[-len(g)])
try:
    g.remove(99)
except ValueError as e:
    print(e)
try:
    g.index(99)
except ValueError as e:
    print(e)
try:
    [1, 2][5] = 0
except IndexError as e:
    print(e)
