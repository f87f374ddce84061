# Values, sends, throws, closes, returns and frames through `yield from`
# chains of generators (the eval loop passes a value through each level).
import sys


def leaf(n, log):
    try:
        for i in range(n):
            got = yield i
            if got is not None:
                log.append(("leaf got", got))
        return "leaf-done"
    finally:
        log.append("leaf finally")


def mid(depth, n, log):
    if depth == 0:
        r = yield from leaf(n, log)
    else:
        r = yield from mid(depth - 1, n, log)
    log.append(("mid", depth, r))
    return r


# values and the return value through 6 levels
log = []
g = mid(5, 3, log)
print(list(g), log)

# send() reaches the leaf through every level
log = []
g = mid(4, 5, log)
print(next(g), g.send("a"), g.send("b"), next(g))
print(log)
g.close()
print(log[-1], g.gi_frame, g.gi_yieldfrom)

# throw() at the top is raised in the leaf; the leaf may catch it
def catcher():
    while True:
        try:
            yield "ready"
        except KeyError as e:
            yield ("caught", e.args)


def wrap(depth):
    if depth == 0:
        return (yield from catcher())
    return (yield from wrap(depth - 1))


g = wrap(7)
print(next(g), g.throw(KeyError("k")), next(g))
try:
    g.throw(ValueError("v"))
except ValueError as e:
    print("escaped", e)
print(g.gi_frame is None)

# an exception in the leaf unwinds every level: its traceback names them all
def bad_leaf():
    yield 1
    raise RuntimeError("boom")


def chain(depth):
    if depth == 0:
        yield from bad_leaf()
    else:
        yield from chain(depth - 1)


g = chain(4)
print(next(g))
try:
    next(g)
except RuntimeError as e:
    names = []
    tb = e.__traceback__
    while tb:
        names.append(tb.tb_frame.f_code.co_name)
        tb = tb.tb_next
    print("traceback", names)

# PEP 479: StopIteration raised in the leaf becomes RuntimeError at the leaf
def stop_leaf():
    yield 1
    raise StopIteration("x")


def stop_chain(d):
    if d == 0:
        yield from stop_leaf()
    else:
        yield from stop_chain(d - 1)


try:
    print(list(stop_chain(3)))
except RuntimeError as e:
    print("RuntimeError", e, type(e.__cause__).__name__)

# the delegators are running (on the frame stack) while the leaf runs
def seer():
    f = sys._getframe()
    names = []
    while f is not None and len(names) < 5:
        names.append(f.f_code.co_name)
        f = f.f_back
    yield names
    yield outer_gen.gi_running, inner_gen.gi_running


def inner():
    yield from seer()


def outer():
    yield from inner()


outer_gen = outer()
print(next(outer_gen))
inner_gen = outer_gen.gi_yieldfrom
print(next(outer_gen), outer_gen.gi_running, inner_gen.gi_running)
outer_gen.close()

# a delegator whose frame object was asked for, then values pass through it
def framed(n):
    fr = sys._getframe()
    yield from range(0)
    yield from leaf(n, [])
    yield fr.f_lineno > 0


print(list(framed(3)))

# delegators inside try/except/finally and with an exception being handled
def handling(d):
    try:
        raise KeyError("outer")
    except KeyError:
        if d == 0:
            for i in range(3):
                yield (i, repr(sys.exc_info()[1]))
        else:
            yield from handling(d - 1)
        yield ("after", d, repr(sys.exc_info()[1]))


print(list(handling(3)))
print(sys.exc_info())

# a generator resumed while it runs: ValueError
def reentrant():
    yield next(me)


me = reentrant()
try:
    next(me)
except ValueError as e:
    print("ValueError", e)

# a chain deeper than the recursion limit: RecursionError, and it recovers
def deep(d):
    if d == 0:
        yield "bottom"
    else:
        yield from deep(d - 1)


try:
    print(next(deep(5000)))
except RecursionError:
    print("RecursionError")
print(next(deep(200)))

# many values through a chain whose levels finish at different times
def counting(n):
    if n == 0:
        return 0
    yield n
    total = yield from counting(n - 1)
    return total + n


def collect(n):
    total = yield from counting(n)
    yield ("total", total)


print(list(collect(30))[-3:])

# sent values and return values through a chain of generator expressions
# and iterators that are not generators
def over_iter(it):
    return (yield from it)


print(list(over_iter(over_iter(iter([1, 2, 3])))))
g = over_iter(over_iter(x * 2 for x in range(3)))
print(next(g), next(g), next(g))
try:
    next(g)
except StopIteration as e:
    print("stop", e.value)

# tracing turned on and off while values pass through a chain: a return
# event for each level the value passes (CPython 3.11)
events = []


def tracer(frame, event, arg):
    if frame.f_code.co_name in ("t_leaf", "t_mid", "t_top"):
        events.append((frame.f_code.co_name, event, arg if event == "return" else None))
    return tracer


def t_leaf():
    yield 1
    sys.settrace(tracer)
    yield 2
    sys.settrace(None)
    yield 3
    yield 4


def t_mid():
    yield from t_leaf()


def t_top():
    yield from t_mid()


g = t_top()
print(next(g), next(g))
sys.settrace(tracer)
print(next(g))
sys.settrace(None)
print(next(g), next(g, "end"))
print(events)
