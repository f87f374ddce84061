# The demo Python program `make demo` runs with build/tmpy-gil (and python3,
# to compare): a little of everything a Python user brings.
import time
from collections import Counter, namedtuple

t0 = time.perf_counter()

# Primes with a sieve (lists, slices, comprehensions).
N = 200000
sieve = [True] * (N + 1)
sieve[0:2] = [False, False]
for i in range(2, int(N ** 0.5) + 1):
    if sieve[i]:
        sieve[i * i::i] = [False] * len(range(i * i, N + 1, i))
primes = [i for i, p in enumerate(sieve) if p]
print(f"{len(primes)} primes below {N}; the last three: {primes[-3:]}")

# Classes, properties, operator overloading, sorting with keys.
Planet = namedtuple("Planet", "name mass radius")


class Vec:
    __slots__ = ("x", "y")

    def __init__(self, x, y):
        self.x, self.y = x, y

    def __add__(self, o):
        return Vec(self.x + o.x, self.y + o.y)

    def __mul__(self, k):
        return Vec(self.x * k, self.y * k)

    @property
    def length(self):
        return (self.x * self.x + self.y * self.y) ** 0.5


pos, vel = Vec(0.0, 0.0), Vec(1.0, 0.5)
for step in range(100000):
    pos = pos + vel * 0.001
print(f"a particle travelled {pos.length:.4f} units")

planets = [Planet("Mercury", 0.33, 2440), Planet("Venus", 4.87, 6052), Planet("Earth", 5.97, 6371),
           Planet("Mars", 0.642, 3390), Planet("Jupiter", 1898, 69911)]
print("by density:", [p.name for p in sorted(planets, key=lambda p: -p.mass / p.radius ** 3)])

# Generators, big integers, strings and dicts.
def fib():
    a, b = 0, 1
    while True:
        yield a
        a, b = b, a + b


f = fib()
big = [next(f) for _ in range(1001)][-1]
print(f"fib(1000) has {len(str(big))} digits and ends in ...{big % 10**12}")
words = ("the quick brown fox jumps over the lazy dog and the dog sleeps " * 2000).split()
print("most common words:", Counter(words).most_common(3))

print(f"done in {time.perf_counter() - t0:.2f} s")
