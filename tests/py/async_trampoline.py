# Coroutines resumed inside the eval loop itself: a for loop over a
# types.coroutine generator that awaits a chain of coroutines, so loops
# (yield points) run inside suspended and resumed coroutine frames.
import types


class Tick:
    def __await__(self):
        got = yield "tick"
        return got


@types.coroutine
def trampoline(coro):
    result = yield from coro
    return result


async def leaf(n):
    total = 0
    for i in range(n):
        total += i * i
        if i % 7 == 0:
            await Tick()
    return total


async def middle(k):
    parts = []
    for j in range(k):
        try:
            parts.append(await leaf(20 + j))
            if j == 3:
                raise ValueError(j)
        except ValueError as e:
            parts.append(("caught", e.args[0]))
            await Tick()
        finally:
            parts.append(len(parts))
    return parts


async def top():
    results = []
    for k in range(1, 6):
        results.append(await middle(k))
    s = 0
    for r in results:
        for x in r:
            if isinstance(x, int):
                s += x
    return s, results[-1]


ticks = 0
gen = trampoline(top())
for y in gen:
    assert y == "tick"
    ticks += 1
print("ticks", ticks)

# the same chain driven by send() with values, and the return value
def drive(coro):
    n = 0
    try:
        v = coro.send(None)
        while True:
            n += 1
            v = coro.send(n)
    except StopIteration as e:
        return n, e.value


async def echo(m):
    acc = []
    for _ in range(m):
        acc.append(await Tick())
    return acc


print(drive(top()))
print(drive(echo(30)))
print(drive(trampoline(echo(12))))

# many coroutines interleaved by a round-robin of trampolines
gens = [trampoline(leaf(50 + i)) for i in range(10)]
done = []
rounds = 0
while gens:
    g = gens.pop(0)
    try:
        next(g)
        gens.append(g)
    except StopIteration as e:
        done.append(e.value)
    rounds += 1
print(rounds, done)
