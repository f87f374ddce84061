# Async generators, async for / async with, async comprehensions, types.coroutine.
import sys
import types


class Sleep:
    def __await__(self):
        v = yield "tick"
        return v


def run(coro, sends=None):
    """Drive coro; each yielded 'tick' is answered with the next of sends."""
    sends = list(sends or [])
    out = []
    v = None
    while True:
        try:
            y = coro.send(v)
        except StopIteration as e:
            out.append(("result", e.value))
            return out
        out.append(y)
        v = sends.pop(0) if sends else None


async def agen(n):
    for i in range(n):
        got = await Sleep()
        yield i, got
    yield "last"


async def consume():
    res = []
    async for x in agen(3):
        res.append(x)
    else:
        res.append("else")
    return res


print(run(consume(), ["a", "b", "c"]))


# async comprehensions
async def comps():
    a = [x async for x in agen(2)]
    b = {str(x) async for x in agen(1)}
    c = {i: x async for i, x in aenumerate(agen(1))}
    d = [await Sleep() for _ in range(2)]
    e = [y for x in [[1, 2], [3]] async for y in aiter_list(x)]
    g = (x async for x in agen(2))
    f = [v async for v in g]
    h = [[z async for z in aiter_list(w)] for w in ([1], [2, 3])]
    return a, sorted(b), c, d, e, f, h


class aiter_list:
    def __init__(self, items):
        self.items = list(items)

    def __aiter__(self):
        return self

    async def __anext__(self):
        if not self.items:
            raise StopAsyncIteration
        return self.items.pop(0)


async def aenumerate(ait):
    i = 0
    async for x in ait:
        yield i, x
        i += 1


print(run(comps(), [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]))

# async with
class ACM:
    def __init__(self, name, log, suppress=False):
        self.name, self.log, self.suppress = name, log, suppress

    async def __aenter__(self):
        self.log.append(("enter", self.name))
        await Sleep()
        return self.name.upper()

    async def __aexit__(self, t, v, tb):
        self.log.append(("exit", self.name, t.__name__ if t else None, str(v) if v else None))
        await Sleep()
        return self.suppress


async def withs(log):
    async with ACM("a", log) as a, ACM("b", log) as b:
        log.append((a, b))
    async with ACM("c", log, suppress=True):
        raise ValueError("boom")
    try:
        async with ACM("d", log):
            raise KeyError("k")
    except KeyError as e:
        log.append(("caught", repr(e)))
    for i in range(3):
        async with ACM("loop%d" % i, log):
            if i == 0:
                continue
            if i == 1:
                break
    async with ACM("ret", log):
        return "returned"


log = []
print(run(withs(log)))
for entry in log:
    print(entry)


async def bad_with(obj):
    async with obj:
        pass


class OnlyEnter:
    async def __aenter__(self):
        return 1


class SyncEnter:
    def __aenter__(self):
        return 1

    def __aexit__(self, *a):
        return 2


for obj in (1, OnlyEnter(), SyncEnter()):
    try:
        run(bad_with(obj))
    except TypeError as e:
        print("TypeError:", e)


async def bad_for(obj):
    async for x in obj:
        pass


class NoAnext:
    def __aiter__(self):
        return 1


class BadAnext:
    def __aiter__(self):
        return self

    def __anext__(self):
        return 5


for obj in ([1], NoAnext(), BadAnext()):
    try:
        run(bad_for(obj))
    except TypeError as e:
        print("TypeError:", e, type(e.__cause__).__name__)

# asend / athrow / aclose by hand
async def ag2():
    try:
        x = yield 1
        print("got", x)
        y = await Sleep()
        print("slept", y)
        z = yield 2
        print("got", z)
    except ValueError as e:
        print("caught in gen", e)
        yield "recovered"
    finally:
        print("cleanup")


g = ag2()
print(type(g).__name__, g.__name__, g.ag_running, g.ag_await, g.ag_code is ag2.__code__)
print(hex(ag2.__code__.co_flags & 0x3a0))
a = g.__anext__()
print(type(a).__name__)
try:
    a.send(None)
except StopIteration as e:
    print("value", e.value)
try:
    a.send(None)
except RuntimeError as e:
    print(e)
s = g.asend("hello")
print(s.send(None))            # the inner await's tick passes through
print(g.ag_running, type(g.ag_await).__name__)
try:
    s.send("zzz")
except StopIteration as e:
    print("value", e.value)
t = g.athrow(ValueError, ValueError("bad"))
try:
    t.send(None)
except StopIteration as e:
    print("athrow value", e.value)
c = g.aclose()
try:
    c.send(None)
except StopIteration as e:
    print("aclose done", e.value)
try:
    g.__anext__().send(None)
except StopAsyncIteration as e:
    print("exhausted", type(e).__name__)


# aclose when the generator ignores GeneratorExit
async def stubborn():
    try:
        yield 1
    except GeneratorExit:
        yield 2


g = stubborn()
try:
    g.asend(None).send(None)
except StopIteration as e:
    print(e.value)
try:
    g.aclose().send(None)
except RuntimeError as e:
    print(e)

# athrow into a fresh generator, aclose of a fresh one
async def simple():
    yield 1

g = simple()
try:
    g.athrow(KeyError("x")).send(None)
except KeyError as e:
    print("KeyError", e)
g = simple()
try:
    g.aclose().send(None)
except StopIteration:
    print("closed fresh")
try:
    g.asend(None).send(None)
except StopAsyncIteration:
    print("StopAsyncIteration after aclose")


# errors inside async generators
async def raises_stop():
    raise StopAsyncIteration
    yield

try:
    raises_stop().__anext__().send(None)
except RuntimeError as e:
    print(e)


async def raises_stopiter():
    raise StopIteration
    yield

try:
    raises_stopiter().__anext__().send(None)
except RuntimeError as e:
    print(e)

# asyncgen hooks
print(sys.get_asyncgen_hooks())
seen = []
sys.set_asyncgen_hooks(firstiter=lambda g: seen.append(g.__name__), finalizer=lambda g: None)
h = sys.get_asyncgen_hooks()
print(h.firstiter is not None, h.finalizer is not None, len(h))
g = simple()
print(seen)
g.__anext__()
g.asend(None)
print(seen)
try:
    sys.set_asyncgen_hooks(firstiter=5)
except TypeError as e:
    print(e)
try:
    sys.set_asyncgen_hooks(finalizer="x")
except TypeError as e:
    print(e)
sys.set_asyncgen_hooks(firstiter=None, finalizer=None)
print(sys.get_asyncgen_hooks())

# types.coroutine
@types.coroutine
def gen_coro():
    v = yield "from gen"
    return v * 2


async def uses_gen_coro():
    return await gen_coro()

print(run(uses_gen_coro(), [21]))
print(hex(gen_coro.__code__.co_flags & 0x1a0))
print(types.CoroutineType.__name__, types.AsyncGeneratorType.__name__, types.GeneratorType.__name__)


def plain_gen():
    yield 1

async def await_plain():
    await plain_gen()

try:
    await_plain().send(None)
except TypeError as e:
    print(e)


inner_coro = uses_gen_coro()


def yf_coro():
    yield from inner_coro

try:
    next(yf_coro())
except TypeError as e:
    print(e)
inner_coro.close()


@types.coroutine
def yf_ok():
    return (yield from uses_gen_coro())

print(run(yf_ok(), [5]))


class Wrapped:
    def __call__(self):
        return plain_gen()

wc = types.coroutine(Wrapped())

async def await_wrapped():
    return await wc()

print(run(await_wrapped()))
try:
    types.coroutine(5)
except TypeError as e:
    print(e)
