# Generators that suspend inside try/finally and with blocks and are dropped
# unfinished: each one is registered for finalization (close() when
# collected), the cost gen_finalize adds over plain generators.
import sys


class Guard:
    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False


def guarded(n):
    with Guard():
        for i in range(n):
            yield i


def tried(n):
    try:
        for i in range(n):
            yield i
    finally:
        pass


def take(g, k):
    t = 0
    for x in g:
        t += x
        k -= 1
        if k == 0:
            break
    return t


n = int(sys.argv[1]) if len(sys.argv) > 1 else 200000
total = 0
for i in range(n):
    total += take(guarded(10), 3) + take(tried(10), 2)
print(total)
