print(min([3, 1, 2]), max("hello"), min(1, 2, key=lambda x: -x), max([], default=None), min((), default=-1))
print(max([("a", 3), ("b", 1)], key=lambda t: t[1]), min("Zebra", "apple", key=str.lower), max(3, 3.0), max(3.0, 3))
print(sum([]), sum([1.5, 2.5]), sum(range(5), start=100), sum([[1], [2]], start=[0]), sum((0.1 for _ in range(3))))
try:
    max([])
except ValueError as e:
    print(e)
try:
    sum(["a", "b"], "")
except TypeError as e:
    print(e)
