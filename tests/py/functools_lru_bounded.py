# A bounded lru_cache: a hit looks its key up once (a user __eq__ runs once,
# as in CPython), and evictions keep the recency order while hits move keys
# to the end and the cache is cleared and refilled.
import functools


class Key:
    eqs = 0

    def __init__(self, v):
        self.v = v

    def __hash__(self):
        return hash(self.v)

    def __eq__(self, other):
        Key.eqs += 1
        return isinstance(other, Key) and self.v == other.v


@functools.lru_cache(maxsize=4)
def f(k):
    return k.v * 2


a, b = Key(1), Key(1)
f(a)
Key.eqs = 0
print(f(b), Key.eqs)   # a hit by an equal, distinct key: one __eq__
Key.eqs = 0
print(f(a), Key.eqs)   # the same object: identity, no __eq__
print(f.cache_info())

calls = []


@functools.lru_cache(maxsize=50)
def g(n):
    calls.append(n)
    return n


# misses evict the least recently used; hits reorder
for round_ in range(3):
    for i in range(200):
        g(i)
        if i % 3 == 0:
            g(i // 2)   # a hit or a miss, moving recent keys
    print(round_, len(calls), g.cache_info())
    if round_ == 1:
        g.cache_clear()
print(sorted(calls[-60:])[:10])

# which keys survive: the 50 most recently used
h_calls = []


@functools.lru_cache(maxsize=50)
def h(n):
    h_calls.append(n)
    return n


for i in range(1000):
    h(i)
    h(i % 7)
before = len(h_calls)
for i in range(951, 1000):
    h(i)
print(len(h_calls) - before, h.cache_info())
for n in range(7):
    h(n)
print(len(h_calls) - before, h.cache_info())
