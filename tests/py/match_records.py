# The match statement on dataclass-like records written by hand: an
# expression simplifier and evaluator, shapes, commands, JSON-like data.


def record(*fields, base=object):
    """A class decorator in the spirit of dataclasses: __init__, __repr__,
    __eq__ and __match_args__ from the field names."""

    def decorate(cls):
        def __init__(self, *args, **kwargs):
            if len(args) > len(fields):
                raise TypeError(f"{cls.__name__} takes {len(fields)} arguments")
            values = dict(zip(fields, args))
            for k, v in kwargs.items():
                if k not in fields or k in values:
                    raise TypeError(f"bad argument {k}")
                values[k] = v
            for f in fields:
                setattr(self, f, values[f])

        def __repr__(self):
            return f"{cls.__name__}({', '.join(repr(getattr(self, f)) for f in fields)})"

        def __eq__(self, other):
            if type(other) is not type(self):
                return NotImplemented
            return all(getattr(self, f) == getattr(other, f) for f in fields)

        cls.__init__ = __init__
        cls.__repr__ = __repr__
        cls.__eq__ = __eq__
        cls.__hash__ = None
        cls.__match_args__ = fields
        return cls

    return decorate


class Expr:
    pass


@record("value")
class Num(Expr):
    pass


@record("name")
class Var(Expr):
    pass


@record("op", "left", "right")
class BinOp(Expr):
    pass


@record("op", "operand")
class Unary(Expr):
    pass


@record("name", "args")
class Call(Expr):
    pass


def simplify(e):
    match e:
        case BinOp("+", Num(0), x) | BinOp("+", x, Num(0)):
            return simplify(x)
        case BinOp("*", Num(1), x) | BinOp("*", x, Num(1)):
            return simplify(x)
        case BinOp("*", Num(0), _) | BinOp("*", _, Num(0)):
            return Num(0)
        case BinOp("-", x, y) if x == y:
            return Num(0)
        case BinOp(op, Num(a), Num(b)):
            return Num(apply(op, a, b))
        case BinOp(op, left, right):
            l, r = simplify(left), simplify(right)
            if (l, r) != (left, right):
                return simplify(BinOp(op, l, r))
            return BinOp(op, l, r)
        case Unary("-", Unary("-", x)):
            return simplify(x)
        case Unary("-", Num(n)):
            return Num(-n)
        case Call(name, [*args]):
            return Call(name, [simplify(a) for a in args])
        case Num() | Var():
            return e
    raise ValueError(f"not an expression: {e!r}")


def apply(op, a, b):
    match op:
        case "+":
            return a + b
        case "-":
            return a - b
        case "*":
            return a * b
        case "/" if b != 0:
            return a / b
        case "/":
            raise ZeroDivisionError("division by zero in the expression")
        case _:
            raise ValueError(op)


def evaluate(e, env):
    match e:
        case Num(value=v):
            return v
        case Var(name=n) if n in env:
            return env[n]
        case Var(name=n):
            raise NameError(f"unbound {n}")
        case BinOp(op=op, left=l, right=r):
            return apply(op, evaluate(l, env), evaluate(r, env))
        case Unary(op="-", operand=x):
            return -evaluate(x, env)
        case Call("max" | "min" as f, [first, *rest]):
            values = [evaluate(a, env) for a in [first, *rest]]
            return max(values) if f == "max" else min(values)
        case Call(name, args):
            raise NameError(f"unknown function {name} of {len(args)} arguments")


exprs = [
    BinOp("+", Num(0), Var("x")),
    BinOp("*", BinOp("+", Var("y"), Num(0)), Num(1)),
    BinOp("*", Var("z"), Num(0)),
    BinOp("-", Var("a"), Var("a")),
    BinOp("+", Num(2), BinOp("*", Num(3), Num(4))),
    Unary("-", Unary("-", Var("q"))),
    Unary("-", Num(5)),
    Call("max", [BinOp("+", Num(1), Num(1)), Var("x"), Unary("-", Num(3))]),
    BinOp("/", Var("x"), BinOp("-", Num(2), Num(2))),
]
env = {"x": 10, "y": 20, "z": 30, "a": 1, "q": 7}
for e in exprs:
    s = simplify(e)
    try:
        v = evaluate(s, env)
    except (ZeroDivisionError, NameError) as err:
        v = f"{type(err).__name__}: {err}"
    print(e, "=>", s, "=", v)
try:
    evaluate(Call("sqrt", [Num(2)]), env)
except NameError as err:
    print("NameError:", err)
try:
    simplify("1 + 1")
except ValueError as err:
    print("ValueError:", err)


# shapes with inheritance and keyword patterns
@record("w", "h")
class Rect:
    pass


@record("side")
class Square(Rect):
    @property
    def w(self):
        return self.side

    @property
    def h(self):
        return self.side


@record("r")
class Circle:
    pass


def area(shape):
    match shape:
        case Square(side=s):
            return ("square", s * s)
        case Rect(w, h) if w == h:
            return ("squarish rect", w * h)
        case Rect(w=w, h=h):
            return ("rect", w * h)
        case Circle(r) if r < 0:
            return ("invalid circle", None)
        case Circle(r):
            return ("circle", round(3.14159 * r * r, 3))
        case [*shapes]:
            return ("many", sum(area(s)[1] for s in shapes))
        case _:
            return ("unknown", None)


for s in [Square(3), Rect(2, 2), Rect(2, 5), Circle(1), Circle(-1), [Rect(1, 2), Square(2)], "box"]:
    print(s, area(s))


# commands, as a text adventure would parse them
def command(text):
    match text.split():
        case []:
            return "say something"
        case ["go", ("north" | "south" | "east" | "west") as direction]:
            return f"going {direction}"
        case ["go", *other]:
            return f"cannot go {' '.join(other) or 'nowhere'}"
        case ["take" | "get", item, *more] if not more:
            return f"taking {item}"
        case ["take" | "get", *items]:
            return f"taking {len(items)} things: {', '.join(items)}"
        case ["drop", *items, "here"]:
            return f"dropping {items} here"
        case [verb, *_] if verb.endswith("!"):
            return "no shouting"
        case [verb, *_]:
            return f"unknown verb {verb!r}"


for t in ["", "go north", "go up the stairs", "go", "take lamp", "get sword shield", "drop a b here", "jump!",
          "dance now"]:
    print(repr(t), "->", command(t))


# JSON-like data
def describe(doc):
    match doc:
        case {"kind": "user", "name": str(name), "age": int(age)} if age >= 18:
            return f"adult {name}"
        case {"kind": "user", "name": str(name), **extra}:
            return f"user {name} with {sorted(extra)}"
        case {"kind": "group", "members": [{"name": first}, *others]}:
            return f"group led by {first} (+{len(others)})"
        case {"kind": "group", "members": []}:
            return "empty group"
        case {"kind": kind}:
            return f"unknown kind {kind}"
        case [*docs]:
            return [describe(d) for d in docs]
        case str() | int() | float() | bool() | None:
            return f"scalar {doc!r}"
        case _:
            return "?"


data = [
    {"kind": "user", "name": "ann", "age": 30},
    {"kind": "user", "name": "bob", "age": 12, "school": "x", "city": "y"},
    {"kind": "group", "members": [{"name": "cy"}, {"name": "di"}, {"name": "ed"}]},
    {"kind": "group", "members": []},
    {"kind": "robot"},
    [1, "two", None, True, 2.5],
    {"no": "kind"},
]
for d in data:
    print(describe(d))


# records as mapping values and sequence items, equality through __eq__
inventory = {"apples": Num(3), "pears": Num(0)}
match inventory:
    case {"apples": Num(n), "pears": Num(0)}:
        print("apples only:", n)
match [Var("a"), Var("b")]:
    case [Var("a") as first, second] if second == Var("b"):
        print("vars", first, second)
match Num(1):
    case Num(1.0):
        print("Num(1) matches Num(1.0): values compare with ==")
