# The match statement: every pattern kind (PEP 634), as CPython 3.11.


def literal(x):
    match x:
        case 0:
            return "zero"
        case -1:
            return "minus one"
        case 1.5:
            return "one and a half"
        case -2.25:
            return "minus 2.25"
        case 10 if False:
            return "never"
        case "hello":
            return "greeting"
        case "con" "cat":
            return "concatenated"
        case b"raw":
            return "bytes"
        case None:
            return "none"
        case True:
            return "true"
        case False:
            return "false"
        case 0x10 | 0o17 | 0b101:
            return "hex/oct/bin"
        case 1_000_000:
            return "million"
        case 123456789012345678901234567890:
            return "big"
        case -98765432109876543210:
            return "negative big"
        case _:
            return "other"


for v in [0, -1, 1.5, -2.25, "hello", "concat", b"raw", None, True, False, 16, 15, 5, 1000000,
          123456789012345678901234567890, -98765432109876543210, 0.0, -0.0, 1, 1.0, "raw", 2]:
    print(repr(v), "->", literal(v))

# == for values, `is` for the singletons: 1 == True, but 1 is not True
match 1:
    case True:
        print("1 is True?")
    case 1:
        print("1 matched 1")
match 1.0:
    case 1:
        print("1.0 == 1")
match True:
    case 1:
        print("True == 1, and `case 1` comes first")


# capture and wildcard
def capture(x):
    match x:
        case [y]:
            return ("one", y)
        case other:
            return ("capture", other)


print(capture([5]), capture("s"), capture(None))

match 42:
    case _:
        print("wildcard matches", 42)


# value patterns: dotted names, compared with ==
class Color:
    RED = 1
    GREEN = 2
    BLUE = "blue"


class Outer:
    class Inner:
        X = (1, 2)


def color(c):
    match c:
        case Color.RED:
            return "red"
        case Color.GREEN | Color.BLUE:
            return "green or blue"
        case Outer.Inner.X:
            return "inner x"
    return "no color"


for c in [1, 2, "blue", (1, 2), [1, 2], 3]:
    print(c, color(c))


# groups, sequences (both bracket kinds, open form), star patterns
def seq(x):
    match x:
        case ():
            return "empty"
        case (a):
            if a == "group":
                return "a group is just the pattern: " + a
            match a:
                case [b]:
                    return ("one item", b)
                case [b, c]:
                    return ("two items", b, c)
                case (b, c, d):
                    return ("three items", b, c, d)
                case first, *middle, last:
                    return ("first/middle/last", first, middle, last)
                case _:
                    return ("not a sequence", a)


for v in [[], (), "group", [1], (1,), [1, 2], (1, 2, 3), list(range(6)), "abc", b"ab", bytearray(b"xy"), 7,
          {"a": 1}, {1, 2}, range(2), iter([1])]:
    r = seq(v)
    print(repr(v) if not hasattr(v, "__next__") else "iterator", "->", r if r[1] is not v else r[0])

match [1, 2, 3, 4, 5]:
    case [*init, 4, 5]:
        print("init", init)
match (1, 2, 3):
    case [1, *_, 3]:
        print("star wildcard in the middle")
match [1]:
    case [*_, 1]:
        print("star wildcard first")
match [1, 2]:
    case [1, 2, *rest]:
        print("empty rest", rest)
match []:
    case [*everything]:
        print("everything of nothing", everything)
match [1, [2, [3, [4]]]]:
    case [a, [b, [c, [d]]]]:
        print("nested", a, b, c, d)
match 1, 2:
    case (x, y):
        print("tuple subject", x, y)
match [[1, 2], [3, 4]]:
    case [[a, b], [c, d]] if a + d == b + c:
        print("nested with guard", a, b, c, d)
match (1, 2, 3, 4):
    case *a, b, c,:
        print("open sequence, trailing comma", a, b, c)


# mappings
def mapping(m):
    match m:
        case {"type": "point", "x": x, "y": y}:
            return ("point", x, y)
        case {"type": "circle", "r": r, **rest}:
            return ("circle", r, rest)
        case {1: one, -2: two, 2.5: f, None: n, False: t}:
            return ("literal keys", one, two, f, n, t)
        case {Color.RED: red}:
            return ("value key", red)
        case {**rest} if not rest:
            return "empty mapping"
        case {}:
            return ("some mapping", sorted(m))
    return "not a mapping"


print(mapping({"type": "point", "x": 1, "y": 2, "z": 3}))
print(mapping({"type": "circle", "r": 5, "color": "red", "fill": None}))
print(mapping({1: "a", -2: "b", 2.5: "c", None: "d", False: "e"}))
print(mapping({1: "only red"}))
print(mapping({}))
print(mapping({"type": "unknown"}))
print(mapping([("type", "point")]))
print(mapping("type"))

# **rest is a new dict without the matched keys; the subject is unchanged
d = {"a": 1, "b": 2, "c": 3}
match d:
    case {"b": 2, **rest}:
        print(rest, d, rest is d)
match d:
    case {**everything}:
        print(everything, everything == d, everything is d)
match {"a": {"b": {"c": [1, 2]}}}:
    case {"a": {"b": {"c": [_, second]}}}:
        print("nested mapping", second)


# class patterns: keyword, positional (__match_args__), nested
class Point:
    __match_args__ = ("x", "y")

    def __init__(self, x, y):
        self.x = x
        self.y = y

    def __repr__(self):
        return f"Point({self.x}, {self.y})"


class Point3(Point):
    __match_args__ = ("x", "y", "z")

    def __init__(self, x, y, z):
        super().__init__(x, y)
        self.z = z


def where(p):
    match p:
        case Point(0, 0):
            return "origin"
        case Point3(x, y, z=0):
            return f"3d on the floor at {x},{y}"
        case Point(x=0, y=y):
            return f"on the y axis at {y}"
        case Point(x, 0):
            return f"on the x axis at {x}"
        case Point(x=x, y=y) if x == y:
            return f"on the diagonal at {x}"
        case Point3():
            return "somewhere in 3d"
        case Point(x=float()):
            return "x is a float"
        case Point():
            return "somewhere"
        case _:
            return "not a point"


for p in [Point(0, 0), Point(0, 5), Point(3, 0), Point(2, 2), Point(1, 2), Point3(1, 2, 0), Point3(0, 0, 1),
          Point3(1, 2, 3), Point(1.5, 2), "point"]:
    print(p, "->", where(p))

# built-in types match themselves with one positional pattern
for v in [True, 5, 2.5, "s", b"b", bytearray(b"ba"), [1], (1,), {1: 2}, {1}, frozenset({2}), None]:
    match v:
        case bool(x):
            print("bool", x)
        case int(x):
            print("int", x)
        case float(x) | str(x):
            print("float or str", repr(x))
        case bytes(x) | bytearray(x):
            print("bytes-like", x)
        case list(x) | tuple(x):
            print("list or tuple", x)
        case dict(x):
            print("dict", x)
        case set(x) | frozenset(x):
            print("set", sorted(x), type(x).__name__)
        case _:
            print("none of them", v)


# or-patterns, as-patterns
def orpat(x):
    match x:
        case 1 | 2 | 3 as small:
            return ("small", small)
        case [1, _] | [_, 1] as pair:
            return ("pair with a one", pair)
        case (Point(x=0) | Point(y=0)) as axis:
            return ("on an axis", axis)
        case ([a, b] | (a, b, _)) as seq if a < b:
            return ("ascending start", a, b, seq)
        case {"k": (1 | 2) as v}:
            return ("k is", v)
        case str() | bytes() as text:
            return ("text", text)
    return "no"


for v in [2, [1, 9], [9, 1], Point(0, 4), Point(4, 0), [3, 4], (3, 4, 5), (5, 4, 3), {"k": 2}, {"k": 3}, "t",
          b"u", 7.5]:
    print(v, "->", orpat(v))

# AS binds the whole subject as well as the parts
match [1, (2, 3)]:
    case [a, (b, c) as inner] as whole:
        print(a, b, c, inner, whole)

# guards see the captured names, and a failing guard tries the next case
for n in range(-2, 3):
    match n:
        case x if x < 0:
            print(n, "negative")
        case x if x == 0:
            print(n, "zero")
        case x:
            print(n, "positive")

# a match with no matching case does nothing
match 5:
    case 1:
        print("no")
print("after a match that matched nothing")
