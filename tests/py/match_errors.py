# The match statement's errors: CPython 3.11's SyntaxErrors (parser and
# compiler) and the exceptions patterns raise at run time.


def check(src):
    try:
        compile(src, "<case>", "exec")
        print("compiles:", repr(src))
    except SyntaxError as e:
        print(type(e).__name__ + ":", e.msg, (e.lineno, e.offset), repr(src))


def case(pattern, more=""):
    check("match x:\n    case " + pattern + ": pass\n" + more)


# irrefutable patterns must come last (or have a guard)
check("match x:\n    case y: pass\n    case 1: pass")
check("match x:\n    case _: pass\n    case 1: pass")
check("match x:\n    case y if y: pass\n    case _: pass\n    case 2: pass")
case("y | 1")
case("_ | 1")
case("(y as z) | 1")
check("match x:\n    case (y as z): pass\n    case 2: pass")
check("match x:\n    case ((a as b) as c) if c: pass\n    case [_, _] as d: pass\n    case z: pass")
case("[y | 1]")
case("1 | y")
case("[1 | (y as z)]")

# names bound twice, alternatives binding different names
case("[x, x]")
case("[x, *x]")
case("{'a': x, **x}")
case("[x] as x")
case("C(a=x, b=x)")
case("[x, (1 as x) | (2 as x)]")
case("[x] | (y,)")
case("[x, y] | [x]")
case("1 | [x]")
case("[x] | 1")
case("(a, b) | (b, a) | (a, *b)")
case("(a, b) | (b, c)")

# star patterns
case("[*a, *b]")
case("*a, *b")
case("[*_, *_]")
case("*a")
case("(*a)")
case("[*a.b]")
case("{**_}")
case("{**a, 'b': 1}")
case("{**a, **b}")

# values, keys and literals
case("f'x'")
case("'a' f'{x}'")
case("{f'x': 1}")
case("{'a': 1, 'a': 2}")
case("{1: 1, 1.0: 2}")
case("{True: 1, 1: 2}")
case("{0: 1, False: 2}")
case("{0.0: 1, -0.0: 2}")
case("{-1: 1, -1: 2}")
case("{None: 1, None: 2}")
case("{'\\n': 1, '\\n': 2}")
case("{b'x': 1, 'x': 2}")
case("{0x10: 1, 16: 2}")
case("{2**3: 1}")
case("{100000000000000000000: 1, 100000000000000000000.0: 2}")
case("{a.b: 1, a.b: 2}")
case("{a: 1}")
case("1 + 2")
case("1 - 2")
case("-a")
case("a + 1")
case("b'a' 'b'")

# class patterns
case("C(a=1, a=2)")
case("C(x=1, 2)")
case("C(1, x=1, 2, 3, y=4)")
case("C(*a)")
case("C(**a)")
case("C(,)")
case("C(__debug__=1)")
case("a.b(1, x=2, 3)")

# capture targets
case("__debug__")
case("[__debug__]")
case("{**__debug__}")
case("1 as __debug__")
case("1 as _")
case("1 as 2")
case("1 as (a)")
case("1 as a.b")
case("1 as y as z")
case("1 | 2 as y | 3")
case("_.x")
case("_()")
case("x = 1")

# statement structure
check("match x\n    case 1: pass")
check("match x:\n    case 1\n        pass")
check("match x:\n    case 1 if y\n        pass")
check("match x:\ncase 1: pass")
check("match x:\n    case 1:\n    pass")
check("match x:\n    pass")
check("match x:\n    case 1: pass\n    pass")
check("match x:\n    case 1: pass\nelse: pass")
check("match x:\n    case: pass")
check("match x y:\n    case 1: pass")
check("match yield x:\n    case a: pass")
check("match x:\n    case [,]: pass")
check("def f():\n    match x:\n        case 1:\n            return\n    return 2")

# a statement `match subject` that is an expression (a call of a function
# named match) makes CPython report a later error as "expected ':'"
check("match(x)\nfoo(a b)\n")
check("match -x\nx = 1 +\n")
check("def f():\n    match(x)\nif x\n    pass\n")
check("x = 1 +\nmatch(x)\n")
check("match(x)\nfoo(a\n")
check("match(x)\nx = 'abc\n")
check("match *x:\n    case 1: pass")
check("match *x, y:\n    case 1: pass")
check("a, b:\n")
check("a, b: int\n")

# errors come in source order: the first case's before the second's
check("match x:\n    case [a, a]: pass\n    case b: pass\n    case 3: pass")
check("match x:\n    case a: pass\n    case [b, b]: pass")
check("match x:\n    case 1:\n        return 5\n    case {'k': 1, 'k': 2}: pass")


# run-time errors
class NoArgs:
    pass


class ListArgs:
    __match_args__ = ["a"]


class IntArgs:
    __match_args__ = ("a", 1)
    a = 1


class TwoArgs:
    __match_args__ = ("a", "b")
    a = 1
    b = 2


class PropArgs:
    @property
    def __match_args__(self):
        return ("a",)


class Raises:
    __match_args__ = ("bad",)

    @property
    def bad(self):
        raise ValueError("attribute raised")

    @property
    def gone(self):
        raise AttributeError("gone")

    def __eq__(self, other):
        raise KeyError("eq raised")

    __hash__ = object.__hash__


class BadLen(list):
    def __len__(self):
        raise RuntimeError("len raised")


class BadGet(dict):
    def get(self, key, default=None):
        raise LookupError(f"get {key}")


class Unhashable:
    __hash__ = None
    k = [1]


def attempt(label, subject, f):
    try:
        print(label, f(subject))
    except Exception as e:
        print(label, type(e).__name__ + ":", e)


def m_len_call(s):
    match s:
        case len():
            return "no"


def m_not_a_type(s):
    match s:
        case Color.RED():
            return "no"


class Color:
    RED = "red"


def m_noargs(s):
    match s:
        case NoArgs(1):
            return "no"
        case _:
            return "no instance"


def m_list_args(s):
    match s:
        case ListArgs(1):
            return "no"


def m_int_args(s):
    match s:
        case IntArgs(1, 2):
            return "no"


def m_too_many(s):
    match s:
        case TwoArgs(1, 2, 3):
            return "no"


def m_int_two(s):
    match s:
        case int(1, 2):
            return "no"


def m_dup_attr(s):
    match s:
        case TwoArgs(1, a=1):
            return "no"


def m_prop_args(s):
    match s:
        case PropArgs(1):
            return "no"


def m_raising_attr(s):
    match s:
        case Raises(1):
            return "no"


def m_gone(s):
    match s:
        case Raises(gone=1):
            return "matched?"
        case Raises():
            return "a missing attribute fails the match"


def m_raising_eq(s):
    match s:
        case 1:
            return "no"


def m_bad_len(s):
    match s:
        case [x]:
            return x


def m_bad_get(s):
    match s:
        case {"k": v}:
            return v


def m_dup_key(s):
    match s:
        case {Color.RED: 1, "red": 2}:
            return "no"


def m_unhashable_key(s):
    match s:
        case {Unhashable.k: 1}:
            return "no"


def m_unpack_mismatch(s):
    match s:
        case [a, b]:
            return a, b


class LenLies(list):
    def __len__(self):
        return 2


attempt("len():", 1, m_len_call)
attempt("not a type:", 1, m_not_a_type)
attempt("no __match_args__:", NoArgs(), m_noargs)
attempt("not an instance:", 5, m_noargs)
attempt("list __match_args__:", ListArgs(), m_list_args)
attempt("int in __match_args__:", IntArgs(), m_int_args)
attempt("too many positional:", TwoArgs(), m_too_many)
attempt("int(1, 2):", 5, m_int_two)
attempt("attribute twice:", TwoArgs(), m_dup_attr)
attempt("property __match_args__:", PropArgs(), m_prop_args)
attempt("attribute raises:", Raises(), m_raising_attr)
attempt("AttributeError:", Raises(), m_gone)
attempt("__eq__ raises:", Raises(), m_raising_eq)
attempt("len raises:", BadLen([1]), m_bad_len)
attempt("get raises:", BadGet(k=1), m_bad_get)
attempt("duplicate key at run time:", {"red": 1}, m_dup_key)
attempt("duplicate key, short mapping:", {"red": 1, "x": 2}, m_dup_key)
attempt("unhashable key:", {1: 2}, m_unhashable_key)
attempt("len and iteration disagree:", LenLies([1, 2, 3]), m_unpack_mismatch)


# a traceback through a pattern shows the pattern's line
def deep(s):
    match s:
        case [1, 2]:
            return "no"
        case (
            Raises(
                1
            )
        ):
            return "no"


try:
    deep(Raises())
except ValueError as e:
    import sys

    tb = sys.exc_info()[2]
    while tb:
        if tb.tb_frame.f_code is deep.__code__:
            print("raised at line", tb.tb_lineno - deep.__code__.co_firstlineno, "of deep:", e)
        tb = tb.tb_next

# an uncaught error inside a pattern ends the program as CPython's does
match Raises():
    case Raises(gone=1) | Raises(bad=1):
        print("no")
