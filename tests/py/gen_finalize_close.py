# A generator collected while suspended unfinished is closed (GeneratorExit
# thrown in; finally blocks and with-exits run); an exception from close is
# reported as "Exception ignored in: <generator object ...>".
import gc


class Ctx:
    def __init__(self, name):
        self.name = name

    def __enter__(self):
        print("enter", self.name)
        return self

    def __exit__(self, *exc):
        print("exit", self.name, exc[0].__name__ if exc[0] else None)
        return False


def with_finally():
    try:
        yield 1
        yield 2
    finally:
        print("finally ran")


def with_ctx():
    with Ctx("a"):
        yield 1


def catches_exit():
    try:
        yield 1
    except GeneratorExit:
        print("got GeneratorExit")
        raise


def no_try():
    yield 1
    yield 2


def raises_in_finally():
    try:
        yield 1
    finally:
        raise ValueError("boom in finally")


def yields_in_finally():
    try:
        yield 1
    finally:
        yield 2


def inner():
    try:
        yield "inner"
    finally:
        print("inner finally")


def outer():
    try:
        yield from inner()
    finally:
        print("outer finally")


def nested_loops():
    for i in range(3):
        try:
            for j in range(3):
                yield i, j
        finally:
            print("nested finally", i)


g = with_finally()
print(next(g))
del g
gc.collect()
print("after with_finally")

g = with_ctx()
next(g)
del g
gc.collect()
print("after with_ctx")

g = catches_exit()
next(g)
del g
gc.collect()

g = no_try()
next(g)
del g
gc.collect()
print("no_try collected quietly")

# never started: nothing runs
g = with_finally()
del g
gc.collect()
print("unstarted: nothing")

# finished: nothing runs twice
g = with_finally()
for x in g:
    pass
del g
gc.collect()

g = outer()
print(next(g))
del g
gc.collect()

g = nested_loops()
next(g)
next(g)
del g
gc.collect()

# resumed past the try: the registration stays, close() does nothing visible
def leaves_try():
    try:
        yield 1
    finally:
        print("leaves_try finally")
    yield 2

g = leaves_try()
next(g)
next(g)
del g
gc.collect()
print("after leaves_try")

# closed explicitly before collection: finally runs once
g = with_finally()
next(g)
g.close()
del g
gc.collect()

# in a cycle
g = with_finally()
next(g)
holder = [g]
holder.append(holder)
del g, holder
gc.collect()
print("cycle done")

# many generators
gens = []
for i in range(50):
    gg = with_finally()
    next(gg)
    gens.append(gg)
del gens, gg
gc.collect()
print("many done")

# errors in close are reported, not raised (stderr is compared by the driver's last line only)
g = raises_in_finally()
next(g)
del g
gc.collect()
print("after raise in finally")

g = yields_in_finally()
next(g)
del g
gc.collect()
print("end")
