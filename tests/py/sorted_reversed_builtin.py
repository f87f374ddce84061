print(sorted([3, 1, 2]), sorted("bca"), sorted((3, 1)), sorted({3: 0, 1: 0}), sorted({5, 2, 9}))
print(sorted([1, -2, 3], key=abs, reverse=True), list(reversed([1, 2, 3])), list(reversed("abc")), list(reversed((1, 2))))
print(list(reversed(range(0, 10, 3))), list(reversed({"a": 1, "b": 2})), "".join(reversed("stressed")))
try:
    reversed({1, 2})
except TypeError as e:
    print(e)
