s = {3, 1, 2}
print(s, len(s), 2 in s, 5 in s)
s.add(10); s.discard(1); s.discard(99); print(s)
a, b = {1, 2, 3, 4}, {3, 4, 5}
print(a | b, a & b, a - b, a ^ b, a.union([9]), a.intersection(b, {4}), a.difference(b))
print(a <= b, {3} < a, a >= {1}, a.isdisjoint({7}), a.issubset(range(10)), a.issuperset([1, 2]))
print(set(range(20)), set("aaa"), frozenset([1, 2]), set(), frozenset())
print({x % 7 for x in range(30)}, sorted({-1, -2, -3}), {-1, -2})
t = set()
for v in [100, 200, 300, 5, 17, 33]:
    t.add(v)
print(t)
t.remove(5); print(t, t.pop(), t)
try:
    t.remove(12345)
except KeyError as e:
    print("KeyError", e)
fs = frozenset({1, 2}); print({fs: "x"}, fs | {3}, hash(fs) == hash(frozenset([2, 1])))
u = {1, 2}; u |= {3}; u &= {1, 3, 4}; u -= {1}; u ^= {7}; print(u)
print({(1, 2), (3, 4)}, {1.5, 2}, {True, 1, 1.0}, {None})
big = set(range(0, 100, 7)); big -= set(range(0, 100, 2)); print(big)
