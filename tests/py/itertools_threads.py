# itertools objects shared by threads: each next() over C iterators is one
# atomic step (no value given twice or lost), tee objects over one source
# each see every value, and copies made in other threads share the buffer.
import copy
import threading
from itertools import chain, combinations, count, cycle, islice, product, repeat, tee, zip_longest

N = 3000
NTHREADS = 4


def run_threads(target, n=NTHREADS):
    results = [None] * n
    threads = [threading.Thread(target=lambda i=i: results.__setitem__(i, target(i))) for i in range(n)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return results


# tee: one tee object per thread over one source
tees = tee(iter(range(N)), NTHREADS)
out = run_threads(lambda i: list(tees[i]))
print('tee each sees all', all(o == list(range(N)) for o in out))

# copies of one tee object made in the threads, at different positions
base, lead = tee(iter(range(N)))
for _ in range(100):
    next(lead)


def copy_and_read(i):
    mine = copy.copy(base) if i % 2 else copy.copy(lead)
    return list(mine)


out = run_threads(copy_and_read)
print('tee copies', [len(o) for o in out], all(o == list(range(N - len(o), N)) for o in out))

# shared iterators: the values the threads got together are each value once
shared = {
    'count': lambda: count(),
    'islice': lambda: islice(count(), 0, None, 3),
    'chain': lambda: chain(range(N), range(N, 2 * N)),
    'product': lambda: product(range(40), range(40)),
    'combinations': lambda: combinations(range(30), 3),
    'zip_longest': lambda: zip_longest(range(N), range(N // 2)),
    'cycle': lambda: cycle(range(7)),
    'repeat': lambda: repeat('x', 2 * N),
    'tee': lambda: tee(iter(range(2 * N)))[0],
}
for name, make in shared.items():
    it = make()
    per_thread = 500

    def take(i):
        got = []
        for _ in range(per_thread):
            try:
                got.append(next(it))
            except StopIteration:
                break
        return got

    out = run_threads(take)
    allvals = [v for o in out for v in o]
    expect = list(islice(make(), per_thread * NTHREADS))
    print(name, len(allvals), sorted(allvals, key=repr) == sorted(expect, key=repr))
