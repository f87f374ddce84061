puzzle = """
530070000
600195000
098000060
800060003
400803001
700020006
060000280
000419005
000080079"""
grid = [[int(c) for c in line] for line in puzzle.split()]
def ok(g, r, c, v):
    if v in g[r] or any(g[i][c] == v for i in range(9)):
        return False
    br, bc = 3 * (r // 3), 3 * (c // 3)
    return all(g[br + i][bc + j] != v for i in range(3) for j in range(3))
def solve(g):
    for r in range(9):
        for c in range(9):
            if g[r][c] == 0:
                for v in range(1, 10):
                    if ok(g, r, c, v):
                        g[r][c] = v
                        if solve(g):
                            return True
                        g[r][c] = 0
                return False
    return True
print(solve(grid))
for row in grid:
    print("".join(map(str, row)))
