from itertools import combinations, permutations, product, groupby, accumulate, chain
coins = [1, 5, 10, 25]
ways = sum(1 for r in range(1, 5) for combo in combinations(coins, r) if sum(combo) == 30)
print(ways, [c for c in combinations(coins, 2) if sum(c) > 20])
print(["".join(p) for p in permutations("abc")], len(list(product(range(3), repeat=3))))
data = sorted(["apple", "avocado", "banana", "blueberry", "cherry"], key=lambda s: s[0])
print({k: list(g) for k, g in groupby(data, key=lambda s: s[0])})
print(list(accumulate(range(1, 6), lambda a, b: a * b)), list(chain(*[[1, 2], [3]])))
