import math
print(math.sqrt(2), math.pi, math.e, math.tau, math.inf, math.nan != math.nan)
print(math.floor(-2.5), math.ceil(-2.5), math.trunc(-2.7), math.fabs(-3), math.factorial(25))
print(math.gcd(48, 18), math.gcd(0, 5), math.lcm(4, 6), math.isqrt(10**20 + 5), math.comb(10, 3), math.perm(5, 2))
print(math.log(math.e), math.log(8, 2), math.log10(1000), math.log2(1024), math.exp(1), math.log(10**100))
print(math.sin(0), round(math.cos(math.pi), 10), math.atan2(1, 1), math.hypot(3, 4), math.degrees(math.pi), math.radians(180))
print(math.isnan(float("nan")), math.isinf(-math.inf), math.isfinite(1.0), math.isclose(0.1 + 0.2, 0.3))
print(math.copysign(3, -0.0), math.fmod(7, 3), math.modf(3.75), math.frexp(8.0), math.ldexp(0.5, 4))
print(math.fsum([0.1] * 10), sum([0.1] * 10), math.prod([1, 2, 3, 4]), math.pow(2, 0.5))
print(math.floor(10**20 / 3) == 10**20 // 3, type(math.floor(2.5)), math.dist((0, 0), (3, 4)))
try:
    math.log(0)
except ValueError as e:
    print("ValueError", e)
try:
    math.exp(1000)
except OverflowError as e:
    print("OverflowError", e)
