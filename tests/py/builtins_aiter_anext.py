# aiter() and anext(), with and without a default, and their errors.
async def agen(n):
    for i in range(n):
        yield i


class Counter:
    def __init__(self, n):
        self.i, self.n = 0, n

    def __aiter__(self):
        return self

    async def __anext__(self):
        if self.i >= self.n:
            raise StopAsyncIteration
        self.i += 1
        return self.i * 10


async def main():
    out = []
    it = aiter(agen(2))
    out.append(await anext(it))
    out.append(await anext(it))
    out.append(await anext(it, "end"))
    try:
        await anext(it)
    except StopAsyncIteration:
        out.append("StopAsyncIteration")
    c = aiter(Counter(1))
    out.append(await anext(c, None))
    out.append(await anext(c, None))
    out.append(await anext(Counter(0), [1, 2]))
    aw = anext(agen(0), "d")
    out.append(type(aw).__name__)
    out.append(await aw)
    return out


def run(coro):
    try:
        coro.send(None)
    except StopIteration as e:
        return e.value
    raise RuntimeError("suspended")


print(run(main()))
for bad in (lambda: aiter([]), lambda: anext(iter([])), lambda: aiter(Counter), lambda: anext()):
    try:
        bad()
    except TypeError as e:
        print("TypeError", e)


class BadAiter:
    def __aiter__(self):
        return 3


try:
    aiter(BadAiter())
except TypeError as e:
    print("TypeError", e)
