def factors(n):
    out, d = [], 2
    while d * d <= n:
        while n % d == 0:
            out.append(d)
            n //= d
        d += 1 if d == 2 else 2
    if n > 1:
        out.append(n)
    return out
for n in [1, 2, 12, 97, 360, 1001, 2**31 - 1, 600851475143, 10**12 + 39]:
    print(n, factors(n))
from math import gcd
print(gcd(2**40 * 3**5, 6**20), [n for n in range(2, 60) if factors(n) == [n]])
