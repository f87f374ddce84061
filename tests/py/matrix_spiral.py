def spiral(n):
    m = [[0] * n for _ in range(n)]
    x = y = 0
    dx, dy = 1, 0
    for k in range(1, n * n + 1):
        m[y][x] = k
        nx, ny = x + dx, y + dy
        if not (0 <= nx < n and 0 <= ny < n and m[ny][nx] == 0):
            dx, dy = -dy, dx
            nx, ny = x + dx, y + dy
        x, y = nx, ny
    return m
for row in spiral(5):
    print(" ".join(f"{v:2d}" for v in row))
print([list(r) for r in zip(*spiral(3))])
