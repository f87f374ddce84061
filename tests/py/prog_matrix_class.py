class Matrix:
    def __init__(self, rows):
        self.rows = [list(r) for r in rows]
        self.n, self.m = len(rows), len(rows[0])
    @classmethod
    def identity(cls, n):
        return cls([[int(i == j) for j in range(n)] for i in range(n)])
    def __matmul__(self, o):
        return Matrix([[sum(a * b for a, b in zip(r, c)) for c in zip(*o.rows)] for r in self.rows])
    def __add__(self, o):
        return Matrix([[a + b for a, b in zip(r, s)] for r, s in zip(self.rows, o.rows)])
    def __eq__(self, o):
        return self.rows == o.rows
    def transpose(self):
        return Matrix(list(zip(*self.rows)))
    def __repr__(self):
        w = max(len(str(v)) for r in self.rows for v in r)
        return "\n".join(" ".join(str(v).rjust(w) for v in r) for r in self.rows)
a = Matrix([[1, 2], [3, 4]])
print(a @ a)
print(a + Matrix.identity(2))
print(a.transpose(), a @ Matrix.identity(2) == a, sep="\n")
