def primes():
    yield 2
    found = []
    n = 3
    while True:
        if all(n % p for p in found if p * p <= n):
            found.append(n)
            yield n
        n += 2
g = primes()
print([next(g) for _ in range(25)])
def collatz(n):
    steps = 0
    while n != 1:
        n = n // 2 if n % 2 == 0 else 3 * n + 1
        steps += 1
    return steps
print(max(range(1, 3000), key=collatz), collatz(27))
