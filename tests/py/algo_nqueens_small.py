def solve(n):
    sols = []
    def place(row, cols, d1, d2, board):
        if row == n:
            sols.append(board[:])
            return
        for c in range(n):
            if c in cols or row - c in d1 or row + c in d2:
                continue
            board.append(c)
            place(row + 1, cols | {c}, d1 | {row - c}, d2 | {row + c}, board)
            board.pop()
    place(0, set(), set(), set(), [])
    return sols
s = solve(6)
print(len(s), s[0], len(solve(8)))
