# Issue 21, reproducer 5: a thread whose transaction is inevitable (it just
# printed) spins, inside Python code called from C, until another thread
# sets a flag. The spinner must commit where it spins (at any eval depth),
# or it never sees the flag and the other thread never sees that it spins.
# Each C caller kind once; every wait is bounded, so a hang is an output
# difference ("timed out"), not a test timeout.
import os
import sys
import threading
import time

LIMIT = 30.0   # seconds: python3 needs none of it


class Shared:
    pass


def timed_out(what):
    print("timed out:", what, flush=True)
    os._exit(1)


def spin(state, what):
    state.spinning = True           # the other thread waits to see this
    deadline = time.monotonic() + LIMIT
    n = 0
    while not state.flag:
        n += 1
        if n % 256 == 0 and time.monotonic() > deadline:
            timed_out(what)
    return 1


def setter(state, what):
    deadline = time.monotonic() + LIMIT
    n = 0
    while not state.spinning:
        n += 1
        if n % 256 == 0 and time.monotonic() > deadline:
            timed_out(what + " (setter)")
    state.flag = True


class EqKey:
    def __init__(self, state, what):
        self.state, self.what = state, what

    def __hash__(self):
        return 7

    def __eq__(self, other):
        return spin(self.state, self.what) == 1


class WithProperty:
    def __init__(self, state):
        self.state = state

    @property
    def value(self):
        return spin(self.state, "property")


class Iter:
    def __init__(self, state):
        self.state, self.done = state, False

    def __iter__(self):
        return self

    def __next__(self):
        if self.done:
            raise StopIteration
        self.done = True
        return spin(self.state, "__next__")


def gen(state):
    yield spin(state, "generator")


class Init:
    def __init__(self, state):
        self.r = spin(state, "__init__")


KINDS = {
    "map": lambda s: list(map(lambda x: spin(s, "map"), [1])),
    "sorted key": lambda s: sorted([3, 1], key=lambda x: spin(s, "sorted key") + x),
    "list.sort key": lambda s: [2, 1].sort(key=lambda x: spin(s, "list.sort key")),
    "dict __eq__": lambda s: {EqKey(s, "dict __eq__"): 1}.get(EqKey(s, "dict __eq__")),
    "property": lambda s: WithProperty(s).value,
    "__next__": lambda s: list(Iter(s)),
    "generator": lambda s: sum(gen(s)),
    "__init__": lambda s: Init(s).r,
    "filter": lambda s: list(filter(lambda x: spin(s, "filter"), [5])),
    "max key": lambda s: max([4, 2], key=lambda x: spin(s, "max key") * x),
}

for what, call in KINDS.items():
    state = Shared()
    state.flag = state.spinning = False
    t = threading.Thread(target=setter, args=(state, what))
    t.start()
    print("start", what)            # stdout: the transaction becomes inevitable
    result = call(state)
    t.join()
    print("done", what, result, flush=True)
print("all done")
