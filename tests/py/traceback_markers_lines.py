# Traceback position markers: expressions over several lines, and the cases
# where CPython prints no marker (the range is the whole line).
import sys


def show(fn):
    try:
        fn()
    except BaseException:
        sys.excepthook(*sys.exc_info())


zero = 0


def fail(*args):
    return 1 / zero


class Obj:
    def method(self, *args):
        return fail()


o = Obj()


def call_over_lines():
    x = fail(1,
             2)
    return x


def binop_over_lines():
    y = (1 +
         "s")
    return y


def method_over_lines():
    r = (o
         .method(1))
    return r


def args_over_lines():
    return max(1,
               fail())


def whole_line_call():
    fail()


def whole_line_raise():
    raise ValueError("whole line")


def whole_line_assert():
    assert zero, "no"


def whole_line_name():
    undefined_name


def whole_line_binop():
    1 / zero


def for_not_iterable():
    for i in 5:
        pass


def augmented():
    x = 1
    x += "s"


def del_subscript():
    d = {}
    del d["nokey"]


def store_subscript():
    t = (1,)
    t[0] = 2


def store_attr():
    (1).real = 2


def unpack():
    p, q = 1


def import_missing():
    import no_such_module_here


def from_import():
    from sys import no_such_name


def with_not_cm():
    with 5:
        pass


def trailing_comment():
    return fail()  # a comment after the call


def dict_literal():
    return {"a": 1,
            "b": fail()}


for case in [call_over_lines, binop_over_lines, method_over_lines, args_over_lines, whole_line_call,
             whole_line_raise, whole_line_assert, whole_line_name, whole_line_binop, for_not_iterable,
             augmented, del_subscript, store_subscript, store_attr, unpack, import_missing, from_import,
             with_not_cm, trailing_comment, dict_literal]:
    show(case)


def outer():
    return o.method(1) + fail(2)


outer()
