# Deep yield-from chains resumed over and over (a delegating generator that
# only passes a value on suspends without saving its slots again: see
# gen_suspend_frame), where the delegating frames change their locals
# between delegates, catch their delegates' exceptions, get values sent and
# exceptions thrown through them, and have their frames looked at mid-run;
# in several threads at once (the STM variants abort and retry them).
import sys
import threading


class Tree:
    def __init__(self, left, value, right):
        self.left, self.value, self.right = left, value, right

    def __iter__(self):
        if self.left:
            yield from self.left
        yield self.value
        if self.right:
            yield from self.right


def tree(r):
    if not r:
        return None
    i = len(r) // 2
    return Tree(tree(r[:i]), r[i], tree(r[i + 1:]))


def leaf(k):
    for i in range(k):
        got = yield i
        if got is not None:
            yield ("got", got)


def relay(depth, k):
    # locals change between its delegates; each delegate's result is kept
    total = 0
    for part in range(2):
        if depth == 0:
            r = yield from leaf(k + part)
        else:
            r = yield from relay(depth - 1, k)
        total += part + (r or 0)
    return total + depth


def catcher(depth):
    # a delegate raises: the delegating frame handles it and goes on
    caught = []
    for i in range(3):
        try:
            if depth == 0:
                yield i
                if i == 1:
                    raise KeyError(i)
            else:
                yield from catcher(depth - 1)
        except KeyError as e:
            caught.append(e.args[0])
            yield ("caught", depth, e.args[0])
    return caught


def inner_frames(depth):
    # looks at the frames of the generators delegating to it
    if depth == 0:
        f = sys._getframe()
        names = []
        while f is not None and f.f_code.co_name == "inner_frames":
            names.append(f.f_locals["depth"])
            f = f.f_back
        yield tuple(names)
        yield "after"
    else:
        mark = depth * 10
        yield from inner_frames(depth - 1)
        yield mark


def run(seed, out):
    res = []
    t = tree(range(seed % 7 + 60))
    res.append(sum(sum(t) for _ in range(30)))
    res.append(list(t)[:5])
    g = relay(4, 2)
    vals = []
    try:
        v = next(g)
        n = 0
        while True:
            n += 1
            v = g.send(n) if n % 3 == 0 else next(g)
            vals.append(v)
    except StopIteration as e:
        vals.append(("ret", e.value))
    res.append(len(vals))
    res.append(vals[:6])
    res.append(vals[-1])
    res.append(list(catcher(3))[:8])
    # throw through a chain: caught at the bottom, the chain goes on
    g = catcher(2)
    next(g)
    res.append(g.throw(KeyError("t")))
    res.append(next(g))
    # close a chain mid-way: every frame's finally runs
    closed = []

    def fin(d):
        try:
            if d == 0:
                yield 1
                yield 2
            else:
                yield from fin(d - 1)
        finally:
            closed.append(d)

    g = fin(4)
    next(g)
    next(g)
    g.close()
    res.append(closed)
    res.append(list(inner_frames(3)))
    # gi_yieldfrom / gi_running / gi_suspended along a suspended chain
    g = relay(2, 3)
    next(g)
    chain = []
    x = g
    while x is not None:
        chain.append((x.gi_running, x.gi_suspended, x.gi_code.co_name))
        x = x.gi_yieldfrom
    res.append(chain)
    # generator already executing, found through the chain
    def selfref():
        yield from me()

    def me():
        try:
            next(outer)
        except ValueError as e:
            yield str(e)

    outer = selfref()
    res.append(next(outer))
    out[seed] = res


results = {}
threads = [threading.Thread(target=run, args=(s, results)) for s in range(4)]
for th in threads:
    th.start()
for th in threads:
    th.join()
run(99, results)
for s in sorted(results):
    for item in results[s]:
        print(s, item)
