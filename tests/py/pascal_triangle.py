rows = [[1]]
for _ in range(12):
    prev = rows[-1]
    rows.append([1] + [a + b for a, b in zip(prev, prev[1:])] + [1])
width = len(" ".join(map(str, rows[-1])))
for r in rows:
    print(" ".join(map(str, r)).center(width))
print(sum(rows[-1]), 2 ** 12)
