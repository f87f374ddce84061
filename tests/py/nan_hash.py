# NaNs hash by identity (CPython 3.10+): equal for the same object, and a
# set or dict of many NaNs is not quadratic.
import math

n1, n2 = float('nan'), float('nan')
h = hash(n1)
print(hash(n1) == h, hash(n1) == hash(n2), hash(n1) == hash(float('nan')))
junk = [[i] * 3 for i in range(20000)]      # objects move; the hash does not
print(hash(n1) == h)
print(len({n1, n2, n1}), n1 in {n1}, float('nan') in {n1}, {n1: 1}.get(n1), {n1: 1}.get(n2))
print(hash((n1, 1)) == hash((n1, 1)), hash((n1,)) == hash((n2,)))
print(hash(float('inf')), hash(-math.inf), hash(0.0), hash(-0.0), hash(1.5), hash(2.0) == hash(2))


class F(float):
    pass


a, b = F('nan'), F('nan')
print(hash(a) == hash(a), hash(a) == hash(b), len({a, b}))
s = {float('nan') for _ in range(3000)}
d = {float('nan'): i for i in range(3000)}
print(len(s), len(d), sum(1 for x in s if math.isnan(x)))
