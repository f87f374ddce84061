# An async generator collected started and unfinished: the finalizer hook of
# sys.set_asyncgen_hooks (captured at its first iteration) is called with it;
# without a hook it is closed (GeneratorExit thrown in; awaiting in its
# finally is reported as "async generator ignored GeneratorExit").
import gc
import sys


class Suspend:
    def __await__(self):
        yield "suspended"


async def agen(name):
    try:
        yield name + "-1"
        yield name + "-2"
    finally:
        print(name, "finally")


async def agen_awaits_in_finally():
    try:
        yield 1
    finally:
        await Suspend()
        print("not reached")


async def agen_no_try():
    yield 1
    yield 2


def step(aw):
    try:
        return aw.send(None)
    except StopIteration as e:
        return ("stop", e.value)


def first(ag):
    try:
        step(ag.__anext__())
    except StopIteration as e:
        return e.value


finalized = []


def finalizer(ag):
    finalized.append(ag.__name__)
    print("finalizer called for", ag.__qualname__)
    # what an event loop does: close it
    try:
        ag.aclose().send(None)
    except StopIteration:
        pass


def firstiter(ag):
    print("firstiter", ag.__qualname__)


# no hooks: closed when collected
ag = agen("a")
print(first(ag))
del ag
gc.collect()
print("after a")

ag = agen_no_try()
first(ag)
del ag
gc.collect()
print("no try: nothing to see")

# never started: nothing
ag = agen("never")
del ag
gc.collect()
print("after never started")

# awaiting in finally while being closed: reported (last stderr line)
ag = agen_awaits_in_finally()
first(ag)
del ag
gc.collect()
print("after awaits_in_finally")

sys.set_asyncgen_hooks(firstiter=firstiter, finalizer=finalizer)
ag = agen("b")
first(ag)
del ag
gc.collect()
print("finalized:", finalized)

# the hook captured at the first iteration is the one called
ag = agen("c")
first(ag)
sys.set_asyncgen_hooks(firstiter=None, finalizer=None)
del ag
gc.collect()
print("finalized:", finalized)

# closed with aclose before collection: the hook is not called
sys.set_asyncgen_hooks(finalizer=finalizer)
ag = agen("d")
first(ag)
try:
    ag.aclose().send(None)
except StopIteration:
    pass
del ag
gc.collect()
print("finalized:", finalized)

# exhausted: nothing
ag = agen("e")
while True:
    try:
        step(ag.__anext__())
    except StopAsyncIteration:
        break
    except StopIteration:
        pass
del ag
gc.collect()
print("finalized:", finalized)


# a raising hook is reported
def bad_finalizer(ag):
    raise KeyError("from the hook")


sys.set_asyncgen_hooks(firstiter=None, finalizer=bad_finalizer)
ag = agen("f")
first(ag)
del ag
gc.collect()
sys.set_asyncgen_hooks(finalizer=None)
print("end")
