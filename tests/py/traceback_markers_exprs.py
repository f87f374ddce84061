# Traceback position markers (PEP 657) for failing expressions: each case
# prints its traceback through sys.excepthook; stderr is compared whole.
import sys


def show(fn):
    try:
        fn()
    except BaseException:
        sys.excepthook(*sys.exc_info())


a, b, zero, s = 1, 2, 0, "s"
d = {"k": {"x": 1}, "l": [1, 2]}


class Obj:
    attr = None

    def method(self, *args):
        return 1 / zero

    def chain(self):
        return self


o = Obj()


def binops():
    return a + s


def two_char_op():
    return a // zero


def power_op():
    return s ** b


def parenthesized():
    return (a) + (s)


def left_nested():
    return a + b + s


def assigned():
    x = 1 / zero
    return x


def spaced():
    return a  *  None


def matmul():
    return a @ b


def subscr_missing():
    return d["missing"]


def subscr_index():
    return d["l"][10]


def subscr_spaces():
    return d[ "nope" ]


def subscr_nested():
    return d["k"]["y"]


def subscr_slice():
    return a[1:2]


def method_call():
    return o.method(1, 2)


def attr_missing():
    return o.missing_attr


def attr_of_none():
    return o.attr.other


def call_result_call():
    return o.chain().method()(2)


def h(v):
    return v / zero


def g(v):
    return h(v) + 1


def nested_calls():
    return len([g(h(1))])


def unary():
    return -s


def compare():
    return a < s


def not_callable():
    return a()


def builtin_call():
    return len(5)


def none_method():
    return None.foo()


def comprehension():
    return [1 / i for i in range(3)]


def unicode_before():
    t = "é" + "ü" + a
    return t


def fstring():
    return f"{s:d}"


def name_error():
    return undefined_name + 1


def lambda_call():
    f = lambda v: v[5]
    return f("abc")


for case in [binops, two_char_op, power_op, parenthesized, left_nested, assigned, spaced, matmul,
             subscr_missing, subscr_index, subscr_spaces, subscr_nested, subscr_slice, method_call,
             attr_missing, attr_of_none, call_result_call, nested_calls, unary, compare, not_callable,
             builtin_call, none_method, comprehension, unicode_before, fstring, name_error, lambda_call]:
    show(case)
print("done")
