def show(*a, **k): return a, k
nums = [1, 2, 3]
print(show(*nums), show(*nums, 4), show(0, *nums), show(*nums, *nums), show(**{"x": 1}), show(*"ab", **{"y": 2}))
print(*nums, sep="+"), print(*[], "empty")
print([*nums, *nums], (*nums,), {*nums}, {**{"a": 1}, **{"b": 2}})
first, *rest = nums
print(first, rest, [*rest, first])
