# Coroutine-heavy: a chain of awaits driven by hand (no event loop). Every
# coroutine is registered for finalization at creation (the "never awaited"
# warning), the cost this measures.
import sys


async def leaf(x):
    return x + 1


async def middle(x):
    return await leaf(x) + await leaf(x + 1)


async def top(n):
    t = 0
    for i in range(n):
        t += await middle(i)
    return t


def run(coro):
    try:
        coro.send(None)
    except StopIteration as e:
        return e.value


n = int(sys.argv[1]) if len(sys.argv) > 1 else 300000
print(run(top(n)))
