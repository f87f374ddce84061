# Async methods, closures, early exits from async for, async generator expressions, finally with awaits.
class Tick:
    def __await__(self):
        return (yield "t")

def run(c):
    n = 0
    try:
        while True:
            c.send(n or None); n += 1
    except StopIteration as e:
        return e.value

class A:
    async def m(self, x):
        return f"{await self.n(x)}-{x}"
    async def n(self, x):
        await Tick()
        return x * 2
    @staticmethod
    async def s():
        return "static"

print(run(A().m(4)), run(A.s()))

def make():
    k = 10
    async def inner(v):
        nonlocal k
        k += await Tick()
        return k + v
    return inner

f = make()
print(run(f(1)), run(f(2)))

async def agen():
    for i in range(5):
        yield i

async def find(t):
    async for x in agen():
        if x == t:
            return x * 100
    return -1

print(run(find(3)), run(find(9)))

async def brk():
    out = []
    async for x in agen():
        if x == 1:
            continue
        if x == 3:
            break
        out.append(x)
    else:
        out.append("no")
    return out
print(run(brk()))

def sync_genexp():
    return (x * 2 async for x in agen())
g = sync_genexp()
print(type(g).__name__)
async def collect(g):
    return [x async for x in g]
print(run(collect(g)))

async def kw(*, a, b=2, **k):
    return a, b, k
print(run(kw(a=1, c=3)))
print(kw.__code__.co_flags & 0x3ff, A.m.__code__.co_flags)
async def gen_in_coro():
    def g():
        yield 1
        yield 2
    return list(g())
print(run(gen_in_coro()))
async def await_in_try_finally():
    try:
        return await Tick()
    finally:
        print("fin")
print(run(await_in_try_finally()))
async def deep_yield_ag():
    try:
        yield 1
        await Tick()
        yield 2
    finally:
        await Tick()
        print("ag finally")
async def use_ag():
    r = []
    async for v in deep_yield_ag():
        r.append(v)
    return r
print(run(use_ag()))
