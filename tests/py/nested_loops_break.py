found = None
for i in range(10):
    for j in range(10):
        if i * j == 42:
            found = (i, j)
            break
    else:
        continue
    break
print(found)
grid = [[1, 2, 3], [4, 5, 6], [7, 8, 9]]
for row in grid:
    for v in row:
        if v % 2 == 0:
            continue
        print(v, end=" ")
print()
result = []
for a in range(1, 20):
    for b in range(a, 20):
        for c in range(b, 20):
            if a * a + b * b == c * c:
                result.append((a, b, c))
print(result)
