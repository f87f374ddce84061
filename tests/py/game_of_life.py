def step(cells, w, h):
    new = set()
    for y in range(h):
        for x in range(w):
            n = sum((x + dx, y + dy) in cells for dx in (-1, 0, 1) for dy in (-1, 0, 1) if dx or dy)
            if n == 3 or (n == 2 and (x, y) in cells):
                new.add((x, y))
    return new
def show(cells, w, h):
    return "\n".join("".join("#" if (x, y) in cells else "." for x in range(w)) for y in range(h))
glider = {(1, 0), (2, 1), (0, 2), (1, 2), (2, 2)}
c = glider
for gen in range(8):
    c = step(c, 8, 8)
print(show(c, 8, 8))
print(len(c), sorted(c))
