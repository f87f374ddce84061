# sys.settrace: call, line, return and exception events with the frame's
# code name and line, as CPython 3.11 reports them: branches, nested
# functions, comprehensions, with, try/finally, exceptions through several
# frames, generators (resumed by next/send, closed), lambdas, loops.
import sys

events = []


def tracer(frame, event, arg):
    if frame.f_code.co_filename != __file__:
        return None
    if event == 'exception':
        arg = arg[0].__name__
    elif event == 'return' and arg is not None and not isinstance(arg, (int, str, tuple, list)):
        arg = type(arg).__name__
    events.append((event, frame.f_code.co_name, frame.f_lineno, arg))
    return tracer


def show():
    for e in events:
        print(*e)
    events.clear()


def simple(a, b):
    c = a + b
    if c > 2:
        c -= 1
    else:
        c += 1
    return c


def nested():
    def inner(x):
        return x * 2
    return inner(3) + inner(4)


def comp():
    return [x * x for x in range(3)]


def with_stmt():
    class CM:
        def __enter__(self):
            return self

        def __exit__(self, *a):
            return False
    with CM() as cm:
        y = 1
    return y


def try_finally():
    try:
        x = 1
        return x
    finally:
        x = 2


def deep(n):
    if n == 0:
        raise KeyError(n)
    return deep(n - 1)


def catcher():
    try:
        deep(2)
    except KeyError as e:
        return str(e)


def gen():
    yield 1
    x = yield 2
    yield x


def use_gen():
    g = gen()
    a = next(g)
    b = next(g)
    c = g.send(5)
    g.close()
    return a + b + c


def lam():
    f = lambda v: v + 1
    return f(1)


def while_loop(n):
    i = 0
    while i < n:
        i += 1
        if i == 2:
            continue
    return i


sys.settrace(tracer)
simple(1, 2)
simple(1, 0)
nested()
comp()
with_stmt()
try_finally()
catcher()
use_gen()
lam()
while_loop(3)
sys.settrace(None)
show()
print(sys.gettrace())
