words = ["apple", "banana", "cherry", "avocado", "blueberry"]
by_letter = {}
for w in words:
    by_letter.setdefault(w[0], []).append(w)
print(by_letter)
lengths = {w: len(w) for w in words}
print(lengths, {k: v for k, v in lengths.items() if v > 5})
inverted = {}
for k, v in lengths.items():
    inverted.setdefault(v, []).append(k)
print(dict(sorted(inverted.items())))
matrix = {(i, j): i * j for i in range(3) for j in range(3) if i <= j}
print(matrix)
nested = {k: {c: k.count(c) for c in set(k)} for k in ["aab"]}
print({k: sorted(v.items()) for k, v in nested.items()})
print(dict(zip("abc", [1, 2, 3])), dict(enumerate("xy")), {**dict.fromkeys(range(3), "z")})
