# Generator-heavy: pipelines of generators, yield from, generator expressions.
import sys


def numbers(n):
    i = 0
    while i < n:
        yield i
        i += 1


def evens(src):
    for x in src:
        if x % 2 == 0:
            yield x


def squares(src):
    for x in src:
        yield x * x


def chained(n):
    yield from numbers(n)
    yield from (x * 3 for x in numbers(n))


def tree(depth):
    if depth == 0:
        yield 1
        return
    yield from tree(depth - 1)
    yield from tree(depth - 1)


n = int(sys.argv[1]) if len(sys.argv) > 1 else 300000
total = 0
for _ in range(3):
    total += sum(squares(evens(numbers(n))))
    total += sum(x for x in chained(n) if x & 1)
print(total, sum(tree(15)))
