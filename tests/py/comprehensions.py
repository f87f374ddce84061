print([x * 2 for x in range(5)], [x for x in range(20) if x % 3 == 0 if x % 2 == 0])
print([(x, y) for x in range(3) for y in range(x)], {x: x * x for x in range(4)}, {x % 3 for x in range(10)})
print([[y for y in range(x)] for x in range(4)], [c.upper() for c in "abc"])
matrix = [[1, 2, 3], [4, 5, 6]]
print([row[i] for i in range(3) for row in matrix], [[row[i] for row in matrix] for i in range(3)])
x = 10
print([x for x in range(3)], x)
print({k: v for k, v in [("a", 1), ("b", 2)] if v > 1}, dict((i, str(i)) for i in range(3)))
print(sum(x for x in range(10)), list(map(lambda t: t[0] + t[1], zip([1, 2], [3, 4]))))
print([i for i in range(3)] + [j for j in "ab"], [(lambda: k)() for k in range(3)])
class A:
    vals = [1, 2]
    doubled = [v * 2 for v in vals]
print(A.doubled)
print([y := 5, y * 2], [n for n in range(5) if (sq := n * n) > 4], sq)
