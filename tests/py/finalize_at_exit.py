# Objects still reachable at a normal exit are finalized as CPython's
# shutdown does, after the atexit handlers: __del__ of what module globals
# hold (directly, in lists and tuples, as attributes, in cycles), suspended
# generators closed; sys.is_finalizing() is true meanwhile. Output order as
# CPython's for these simple cases.
import atexit
import sys


class D:
    def __init__(self, name):
        self.name = name

    def __del__(self):
        print("del", self.name, sys.is_finalizing())


class Holder:
    pass


def gen():
    try:
        yield 1
    finally:
        print("generator closed at exit")


first = D("first")
items = [D("list-1"), D("list-2"), D("list-3")]
_private = D("_private")
pair = (D("tuple-1"), D("tuple-2"))
holder = Holder()
holder.inner = D("attribute")
cycle = D("cycle")
cycle.me = cycle
g = gen()
next(g)


def make_unreachable_cycle():
    a = D("unreachable-a")
    b = D("unreachable-b")
    a.other = b
    b.other = a


make_unreachable_cycle()
last = D("last")
atexit.register(print, "atexit 1")
atexit.register(print, "atexit 2")
print("main done", sys.is_finalizing())
