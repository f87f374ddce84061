# CPython's SyntaxErrors for async/await (message and position), through compile().
cases = [
    "await x",
    "def f():\n    await x",
    "class C:\n    await x",
    "f = lambda: await x",
    "async with a: pass",
    "def f():\n    async with a: pass",
    "async for x in y: pass",
    "def f():\n    async for x in y: pass",
    "async def f():\n    yield from x",
    "async def f():\n    yield 1\n    return 2",
    "async def f():\n    return (yield)",
    "async def f():\n    yield\n    return",
    "[x async for x in y]",
    "def f():\n    return [x async for x in y]",
    "def f():\n    return [await x for x in y]",
    "def f():\n    return {x: 1 async for x in y}",
    "def f():\n  return {await x for x in y}",
    "def f():\n    return (x async for x in y)",
    "def f():\n    return (await x for x in y)",
    "async def f():\n    return [[y async for y in x] for x in z]",
    "def f():\n    return [[y async for y in x] for x in z]",
    "async def f():\n    [(yield x) async for x in y]",
    "async def f():\n    x = [i for i in await y]",
    "def f():\n    x = [i for i in await y]",
    "async def f():\n    def g():\n        await x",
    "async def f():\n    lambda: await x",
    "async def f():\n    lambda: [await x for x in y]",
    "async def f():\n    class C:\n        await x",
    "async def f():\n    x = [i async for i in y if await z]",
    "def g():\n    async def f():\n        pass\n    yield from f()",
    "async = 1",
    "await = 1",
    "async def f(): await",
    "await",
    "async x = 1",
    "async def f():\n    await x = 1",
    "async def f():\n    async while x: pass",
    "async def f():\n    async with a as b, c as d: pass\n    async for a, b in c: pass\n    else: pass",
    "@dec\nasync def f(): pass",
    "async def f():\n    return await a ** await b",
    "async def f():\n    return -await a.b(c)[d]",
    "async def f():\n    async def g():\n        pass\n",
    "async def f():\n    x = {k: v async for k, v in y}\n    y = {await a: await b for a, b in c}\n",
    "def f():\n    async def g():\n        yield\n        return 1\n",
]
for src in cases:
    for mode in ("exec",):
        try:
            compile(src, "<case>", mode)
            print(repr(src), "compiles")
        except SyntaxError as e:
            print(repr(src), type(e).__name__, e.msg, e.lineno, e.offset, e.end_lineno, e.end_offset)
