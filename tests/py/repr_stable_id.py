# Default reprs "<... at 0x...>" show id()'s value: a young object that a
# collection moves keeps the same repr, and the hex number is hex(id(obj)).
import gc
import sys


def f():
    pass


def outer():
    box = [1]

    def inner():
        return box
    return inner


def finished_frame():
    return sys._getframe()


async def coro_fn():
    pass


class A:
    pass


def fresh():
    coro = coro_fn()
    objs = {
        "function": lambda: 0,
        "instance": A(),
        "object": object(),
        "generator": (x for x in []),
        "coroutine": coro,
        "code": compile("1", "<s>", "eval"),
        "cell": outer().__closure__[0],
        "frame": finished_frame(),
        "method-wrapper": A().__init__,
        "iterator": iter([]),
        "def": f,
    }
    return objs, coro


objs, coro = fresh()
before = {k: repr(v) for k, v in objs.items()}
junk = [[i] for i in range(100000)]
gc.collect()
del junk
for k, v in objs.items():
    r = repr(v)
    print(k, r == before[k], hex(id(v)) in r)
cell = objs["cell"]
print("cell contents", hex(id(cell.cell_contents)) in repr(cell))
coro.close()
