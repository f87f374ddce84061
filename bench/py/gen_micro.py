# Generator/coroutine resumption micro-benchmarks (issue 23): each case
# prints its CPU time. Usage: gen_micro.py [scale] [case,...]
import asyncio
import sys
import time


def counter(n):
    i = 0
    while i < n:
        yield i
        i += 1


def case_for(n):
    t = 0
    for x in counter(n):
        t += x
    return t


def case_next(n):
    g = counter(n)
    nx = next
    t = 0
    for _ in range(n):
        t += nx(g)
    return t


def echo():
    x = 0
    while True:
        x = yield x


def case_send(n):
    g = echo()
    next(g)
    s = g.send
    t = 0
    for i in range(n):
        t += s(i)
    return t


def chain(depth, n):
    if depth == 0:
        yield from counter(n)
    else:
        yield from chain(depth - 1, n)


def case_yield_from(n):
    t = 0
    for x in chain(8, n // 4):
        t += x
    return t


class Tree:
    def __init__(self, left, value, right):
        self.left = left
        self.value = value
        self.right = right

    def __iter__(self):
        if self.left:
            yield from self.left
        yield self.value
        if self.right:
            yield from self.right


def tree(r):
    n = len(r)
    if n == 0:
        return None
    i = n // 2
    return Tree(tree(r[:i]), r[i], tree(r[i + 1:]))


_tree = None


def case_tree(n):
    global _tree
    if _tree is None:
        _tree = tree(range(20000))
    t = 0
    for _ in range(max(1, n // 20000)):
        for x in _tree:
            t += x
    return t


def case_genexpr_sum(n):
    return sum(x for x in range(n))


def case_genexpr_list(n):
    return len(list(x * 2 for x in range(n)))


def case_genexpr_join(n):
    s = [str(i % 10) for i in range(1000)]
    t = 0
    for _ in range(n // 1000):
        t += len("".join(c for c in s))
    return t


def case_many_short(n):
    # creating and exhausting many small generators (StopIteration at end)
    t = 0
    for i in range(n // 4):
        for x in counter(3):
            t += x
    return t


def case_coroutine(n):
    async def leaf(x):
        return x

    async def mid(x):
        return await leaf(x) + await leaf(x)

    async def top(k):
        t = 0
        for i in range(k):
            t += await mid(i)
        return t

    c = top(n // 2)
    try:
        c.send(None)
    except StopIteration as e:
        return e.value


def case_async_gen(n):
    async def agen(k):
        for i in range(k):
            yield i

    async def main():
        t = 0
        async for x in agen(n):
            t += x
        return t

    return asyncio.run(main())


class ATree(Tree):
    async def __aiter__(self):
        if self.left:
            async for i in self.left:
                yield i
        yield self.value
        if self.right:
            async for i in self.right:
                yield i


def atree(r):
    if not r:
        return None
    i = len(r) // 2
    return ATree(atree(r[:i]), r[i], atree(r[i + 1:]))


def case_async_tree(n):
    t = atree(range(5000))

    async def main():
        s = 0
        for _ in range(max(1, n // 20000)):
            async for x in t:
                s += x
        return s

    return asyncio.run(main())


CASES = {name[5:]: fn for name, fn in globals().items() if name.startswith("case_")}

scale = float(sys.argv[1]) if len(sys.argv) > 1 else 1.0
names = sys.argv[2].split(",") if len(sys.argv) > 2 else list(CASES)
N = int(400000 * scale)
for name in names:
    t0 = time.process_time()
    CASES[name](N)
    print(f"{name:14s} {time.process_time() - t0:.3f}")
