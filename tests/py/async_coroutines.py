# Coroutines driven by a tiny hand-written scheduler (no event loop).
import sys


class Future:
    """An awaitable that suspends its awaiter until a value is set."""
    def __init__(self):
        self.done = False
        self.value = None

    def __await__(self):
        if not self.done:
            yield self
        return self.value


class Ready:
    def __init__(self, v):
        self.v = v

    def __await__(self):
        return iter([])  # finishes at once: the await's result is None

    def __repr__(self):
        return "Ready(%r)" % self.v


def run(coro):
    """Drive coro to the end with send(None); futures get resolved at once."""
    trace = []
    value = None
    while True:
        try:
            fut = coro.send(value)
        except StopIteration as e:
            trace.append(("done", e.value))
            return trace
        trace.append(("yielded", type(fut).__name__))
        fut.done = True
        fut.value = len(trace) * 10
        value = None


async def add(a, b):
    return a + b


async def waits():
    f = Future()
    x = await f
    y = await add(x, 1)
    z = await Ready(5)
    return (x, y, z)


print(run(waits()))

# a round-robin scheduler of several coroutines
class Sleep:
    def __await__(self):
        yield "sleep"


async def worker(name, n, log):
    total = 0
    for i in range(n):
        log.append((name, i))
        await Sleep()
        total += await add(i, i)
    return name, total


def scheduler(coros):
    log_results = []
    queue = list(coros)
    while queue:
        c = queue.pop(0)
        try:
            r = c.send(None)
            assert r == "sleep"
            queue.append(c)
        except StopIteration as e:
            log_results.append(e.value)
    return log_results


log = []
print(scheduler([worker("a", 3, log), worker("b", 2, log), worker("c", 1, log)]))
print(log)

# attributes
async def coro_fn(x):
    await Sleep()
    return x * 2

c = coro_fn(21)
print(type(c).__name__, c.__name__, c.__qualname__, c.cr_running, c.cr_suspended, c.cr_await, c.cr_origin)
print(c.cr_code is coro_fn.__code__, c.cr_frame is not None)
print(hex(coro_fn.__code__.co_flags & 0x3a0))
print(repr(c).startswith("<coroutine object coro_fn at "))
print(c.send(None))
print(c.cr_suspended, type(c.cr_await).__name__)
try:
    c.send(None)
except StopIteration as e:
    print("stop", e.value, e.args)
print(c.cr_frame, c.cr_suspended, c.cr_await)
for op in (lambda: c.send(None), lambda: c.throw(ValueError), lambda: c.close()):
    try:
        print(op())
    except Exception as e:
        print(type(e).__name__, e)

# send a non-None value first
c = coro_fn(1)
try:
    c.send(5)
except TypeError as e:
    print(e)
c.close()

# iter() of a coroutine, __await__ wrapper
c = coro_fn(2)
try:
    iter(c)
except TypeError as e:
    print(e)
w = c.__await__()
print(type(w).__name__, iter(w) is w, next(w))
try:
    w.send(None)
except StopIteration as e:
    print("wrapper stop", e.value)

# await errors
async def bad_await(x):
    return await x

for obj in (1, "s", None):
    c = bad_await(obj)
    try:
        c.send(None)
    except TypeError as e:
        print(e)


class BadAwait:
    def __await__(self):
        return 42


class CoroAwait:
    def __await__(self):
        self.c = coro_fn(1)
        return self.c


for obj in (BadAwait(), CoroAwait()):
    try:
        bad_await(obj).send(None)
    except TypeError as e:
        print(e)
    if hasattr(obj, "c"):
        obj.c.close()   # never awaited: closed, so CPython does not warn

# awaiting a coroutine twice
async def inner():
    await Sleep()
    return 1

async def outer(c):
    return await c

i = inner()
o1 = outer(i)
print(o1.send(None))
o2 = outer(i)
try:
    o2.send(None)
except RuntimeError as e:
    print(e)

# StopIteration inside a coroutine
async def raises_stop():
    raise StopIteration(3)

try:
    raises_stop().send(None)
except RuntimeError as e:
    print(type(e).__name__, e, type(e.__cause__).__name__)

# coroutine already executing
async def self_send():
    me.send(None)

me = self_send()
try:
    me.send(None)
except ValueError as e:
    print(e)

# return values through a chain of awaits
async def depth(n):
    if n == 0:
        await Sleep()
        return 0
    return 1 + await depth(n - 1)

c = depth(50)
print(c.send(None))
try:
    c.send(None)
except StopIteration as e:
    print("depth", e.value)
