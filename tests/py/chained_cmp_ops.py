x = 5
print(1 < x < 10, 1 < x < 3, x == 5 != 6, 0 <= x <= 5 < 6, 3 > 2 > 1 > 0, 1 < 2 > 1)
def noisy(v):
    print("eval", v); return v
print(noisy(1) < noisy(2) < noisy(0) < noisy(5))
print("a" < "b" <= "b", [1] < [1, 0], (1, 2) <= (1, 2), None is None is not False)
print(x in [5] in [[5]], not 1 == 2, not (1 < 2 and 2 < 3))
print(2 ** 3 ** 2, -2 ** 2, (-2) ** 2, 2 * 3 + 4 * 5, 10 - 4 - 3, 2 ** -1, 7 // 2 * 2 + 7 % 2)
print(1 + 2 * 3 ** 2 // 4 % 5, ~0 & 0xF | 0x10 ^ 0x3, 1 << 2 + 1, (1 << 2) + 1)
