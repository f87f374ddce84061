# N-queens by permutations and generator filtering (sets, tuples, generators).
import sys


def permutations(iterable):
    pool = tuple(iterable)
    n = len(pool)
    indices = list(range(n))
    cycles = list(range(n, 0, -1))
    yield tuple(pool[i] for i in indices)
    while n:
        for i in reversed(range(n)):
            cycles[i] -= 1
            if cycles[i] == 0:
                indices[i:] = indices[i + 1:] + indices[i:i + 1]
                cycles[i] = n - i
            else:
                j = cycles[i]
                indices[i], indices[-j] = indices[-j], indices[i]
                yield tuple(pool[i] for i in indices)
                break
        else:
            return


def n_queens(size):
    cols = range(size)
    for vec in permutations(cols):
        if size == len(set(vec[i] + i for i in cols)) == len(set(vec[i] - i for i in cols)):
            yield vec


n = int(sys.argv[1]) if len(sys.argv) > 1 else 8
solutions = list(n_queens(n))
print(len(solutions), solutions[0], solutions[-1])
