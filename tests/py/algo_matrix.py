def matmul(a, b):
    return [[sum(x * y for x, y in zip(row, col)) for col in zip(*b)] for row in a]
def identity(n):
    return [[1 if i == j else 0 for j in range(n)] for i in range(n)]
def mpow(m, e):
    r = identity(len(m))
    while e:
        if e & 1:
            r = matmul(r, m)
        m = matmul(m, m)
        e >>= 1
    return r
print(mpow([[1, 1], [1, 0]], 90)[0][1])
a = [[1, 2], [3, 4]]
print(matmul(a, a), [list(r) for r in zip(*a)], mpow(a, 5))
def det(m):
    if len(m) == 1:
        return m[0][0]
    return sum((-1) ** j * m[0][j] * det([row[:j] + row[j+1:] for row in m[1:]]) for j in range(len(m)))
print(det([[2, 0, 1], [1, 3, 2], [1, 1, 1]]), det([[float(i + j) for j in range(3)] for i in range(3)]))
