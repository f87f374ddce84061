r = range(0, 20, 3)
print(r, list(r), len(r), r[2], r[-1], r[1:3], r[::-1], list(r[::2]), 9 in r, 10 in r, r.index(9), r.count(3))
print(range(5) == range(0, 5, 1), range(0) == range(2, 2), list(range(5, 0, -1)), list(range(-3, 3)), len(range(10**18)))
print(range(10**20)[10**19], 10**19 in range(10**20), list(reversed(range(4))), sum(range(1000)), max(range(7)))
print(range(3).start, range(3).stop, range(1, 9, 2).step, bool(range(0)), bool(range(1)))
try:
    range(1, 2, 0)
except ValueError as e:
    print(e)
try:
    range(5)[10]
except IndexError as e:
    print(e)
for i in range(3, -3, -2):
    print(i, end=" ")
print()
