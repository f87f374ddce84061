import math
print(math.factorial(30), math.comb(52, 5), math.perm(10), math.gcd(2**40, 6**20), math.isqrt(2**101))
print(math.floor(-0.5), math.ceil(0.5), math.floor(10**30 + 0.0) == 10**30, math.trunc(1e20))
print(round(math.sin(math.pi / 6), 12), round(math.cos(math.pi / 3), 12), round(math.tan(math.pi / 4), 12))
print(math.asin(1) * 2 == math.pi, round(math.acos(0.5), 12), math.atan(1) * 4 == math.pi, math.sinh(0), math.cosh(0), math.tanh(0))
print(math.sqrt(144), math.exp(0), math.log(1), math.log(100, 10), math.log1p(0), math.expm1(0), math.pow(2, 10))
print(math.hypot(5, 12), math.fabs(-7.5), math.copysign(1, -2), math.isclose(1.0, 1.0 + 1e-10), math.isclose(1, 1.1))
print(math.erf(0), round(math.gamma(5), 10), round(math.lgamma(10), 10), math.inf > 10**300, -math.inf < -10**300)
print(math.fsum([1e100, 1.0, -1e100, 1.0]), sum([1e100, 1.0, -1e100, 1.0]), math.prod(range(1, 11)), math.prod([]))
for bad in [(math.sqrt, -1), (math.log, -1), (math.acos, 2)]:
    try:
        bad[0](bad[1])
    except ValueError as e:
        print(bad[0].__name__, e)
try:
    math.factorial(-1)
except ValueError as e:
    print(e)
