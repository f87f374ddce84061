# itertools.product yields lazily (product(range(10), repeat=7) must not build
# ten million tuples first) and islice/product check their arguments when
# called, with CPython's errors.
import itertools
print(list(itertools.islice(itertools.product(range(10), repeat=7), 3)))
for args in [(), ([],), ([1, 2],), ([1, 2], 'ab'), ([1, 2], [], [3]), ('ab', 'cd', 'e')]:
    print(list(itertools.product(*args)), list(itertools.product(*args, repeat=2))[:7], list(itertools.product(*args, repeat=0)))
for a in [(-1,), (2**63,), (1, -1), (1, 2**63), (-1, 5), (2**63, 5), (0, 5, 0), (0, 5, -1), (0, 5, 2**63), ('a',), (None, 'a'), (0, 5, 'x'), (1,2,3,4), (), (None,), (2, None), (1, 10, 3), (True, 5)]:
    try: print(a, list(itertools.islice(range(20), *a)))
    except Exception as e: print(a, type(e).__name__, e)
for r in [-1, 2**62, 2**63]:
    try: itertools.product([1], repeat=r); print(r, 'ok')
    except Exception as e: print(r, type(e).__name__)
try: itertools.islice(5, 3)
except TypeError as e: print('TypeError')
it = iter(range(10)); print(list(itertools.islice(it, 2, 4)), next(it))
it = iter(range(10)); print(list(itertools.islice(it, 5, 2)), next(it))
