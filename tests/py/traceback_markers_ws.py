# Traceback position markers (PEP 657): indentation by tabs, trailing blanks,
# decorators, generators, chained exceptions, class bodies, recursion, and an
# uncaught error at the end (the whole of stderr is compared).
import sys


def show(fn):
    try:
        fn()
    except BaseException:
        sys.excepthook(*sys.exc_info())


zero = 0


def tabbed():
	x = 1
	return x / zero


def trailing_spaces():
    return 1 / zero   


def trailing_spaces_call():
    tabbed()   


show(tabbed)
show(trailing_spaces)
show(trailing_spaces_call)


def deco(f):
    return f(0)


def decorated():
    @deco
    def inner(v):
        return 1 / v
    return inner


def gen():
    yield 1
    yield {}["g"]


def run_gen():
    return list(gen())


def chained():
    try:
        {}["first"]
    except KeyError:
        return [][1]


def caused():
    try:
        1 / zero
    except ZeroDivisionError as e:
        raise ValueError("again") from e


def recurse(n):
    return recurse(n + 1) + 1


def class_body():
    class C:
        x = 1 + "s"
    return C


def in_with():
    import threading
    with threading.Lock():
        return zero.real.imag / zero


def multiline_string_then_error():
    x = """a
b""" + 1
    return x


def lambda_default(f=lambda: 1 / zero):
    return f() + 0


for case in [decorated, run_gen, chained, caused, class_body, in_with, multiline_string_then_error,
             lambda_default]:
    show(case)
sys.setrecursionlimit(60)
show(lambda: recurse(0))
x = {"a": [1, 2, 3]}
y = x["a"][1] + x["a"][5] * 2
