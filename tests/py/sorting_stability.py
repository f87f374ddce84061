records = [("bob", 25, "nyc"), ("al", 30, "sf"), ("cy", 25, "la"), ("di", 30, "nyc"), ("ed", 22, "sf")]
print(sorted(records, key=lambda r: r[1]))
print(sorted(records, key=lambda r: (r[2], -r[1])))
print(sorted(records, key=lambda r: r[1], reverse=True))
by_city = sorted(sorted(records, key=lambda r: r[0]), key=lambda r: r[2])
print([r[0] for r in by_city])
nums = [3, -1, 4, -1, 5, -9, 2, 6]
print(sorted(nums, key=abs), sorted(nums, key=lambda x: (x % 3, x)), sorted(map(str, nums)))
data = list(range(20, 0, -1)); data.sort(key=lambda x: x % 5); print(data)
words = "The Quick brown fox Jumps over the lazy dog".split()
print(sorted(words), sorted(words, key=str.casefold), sorted(words, key=len, reverse=True))
print(sorted([[3, 1], [1, 2], [1, 1]]), sorted([(1, "b"), (1, "a"), (0, "z")]), sorted("bca", reverse=True))
floats = [3.5, -0.5, 2.25, 1e10, -1e-5]; floats.sort(); print(floats)
try:
    sorted([1, "a"])
except TypeError as e:
    print(e)
