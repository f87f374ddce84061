# The builtins aiter() and anext() (with and without a default), driven by
# hand (no event loop), and CPython's messages for wrong arguments.


def run(coro):
    try:
        while True:
            coro.send(None)
    except StopIteration as e:
        return e.value


async def agen(n):
    for i in range(n):
        yield i


class Counter:
    def __init__(self, n):
        self.i = 0
        self.n = n

    def __aiter__(self):
        return self

    async def __anext__(self):
        if self.i >= self.n:
            raise StopAsyncIteration
        self.i += 1
        return self.i


class Pause:
    def __await__(self):
        yield "pause"


class Suspending:
    """__anext__ suspends once before it answers (anext_awaitable asks the
    wrapped awaitable for its iterator at each step, as CPython does: a
    coroutine's iterator keeps its place)."""

    def __init__(self):
        self.done = False

    def __aiter__(self):
        return self

    async def __anext__(self):
        await Pause()
        if self.done:
            raise StopAsyncIteration
        self.done = True
        return "value"


async def main():
    it = aiter(agen(3))
    print(await anext(it), await anext(it), await anext(it))
    print(await anext(it, "default"))
    try:
        await anext(it)
    except StopAsyncIteration:
        print("StopAsyncIteration")
    c = Counter(2)
    print(aiter(c) is c)
    print(await anext(c), await anext(c, "d"), await anext(c, "d"))
    s = Suspending()
    print(await anext(s, "dflt"), await anext(s, "dflt"))
    ag = agen(1)
    aw = anext(ag, None)
    print(type(aw).__name__, aw.__await__() is aw, iter(aw) is aw)


run(main())

# stepping an anext_awaitable by hand: send, throw, close
aw = anext(Suspending(), 42)
print(aw.send(None))
try:
    aw.send(None)
except StopIteration as e:
    print("StopIteration", e.value)
aw = anext(Suspending(), 42)
print(next(aw))
try:
    aw.throw(ValueError("thrown"))
except ValueError as e:
    print("ValueError", e)

aw = anext(Counter(0), "empty")
try:
    aw.send(None)
except StopIteration as e:
    print("empty ->", e.value)

for bad in [lambda: aiter(1), lambda: aiter(), lambda: aiter(1, 2), lambda: anext(1), lambda: anext(1, 2),
            lambda: anext(), lambda: anext(1, 2, 3), lambda: aiter([]), lambda: anext(iter([]))]:
    try:
        bad()
    except TypeError as e:
        print("TypeError:", e)


class BadAiter:
    def __aiter__(self):
        return 1


try:
    aiter(BadAiter())
except TypeError as e:
    print("TypeError:", e)


class NotAwaitable:
    def __aiter__(self):
        return self

    def __anext__(self):
        return 5


print(anext(NotAwaitable()))
try:
    anext(NotAwaitable(), 0).send(None)
except TypeError as e:
    print("TypeError:", e)
