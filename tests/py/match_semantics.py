# The match statement: evaluation order, the calls patterns make, when
# names are bound, and match inside functions, generators, classes, loops.
log = []


class Loud:
    """A value whose comparisons are logged."""

    def __init__(self, name):
        self.name = name

    def __eq__(self, other):
        log.append(f"{self.name}.__eq__({other!r})")
        return isinstance(other, int) and other == len(self.name)

    __hash__ = None

    def __repr__(self):
        return self.name


def show(title):
    print(title, log)
    log.clear()


# The subject is evaluated once; a value pattern compares subject == value
# (the subject's __eq__ first).
def subject():
    log.append("subject")
    return Loud("abc")


match subject():
    case 1:
        pass
    case 2 | 3:
        print("matched 3")
    case 4:
        pass
show("value patterns:")


# A sequence pattern: len() once, then unpacking (iteration), or indexing when
# the star is `*_`, or nothing at all when every item is a wildcard.
class Seq(list):
    def __len__(self):
        log.append("len")
        return super().__len__()

    def __getitem__(self, i):
        log.append(f"getitem {i}")
        return super().__getitem__(i)

    def __iter__(self):
        log.append("iter")
        return super().__iter__()


s = Seq([1, 2, 3, 4])
match s:
    case [a, b]:
        pass
    case [a, b, c, d]:
        print("unpacked", a, b, c, d)
show("unpack:")
match s:
    case [a, *_, d]:
        print("indexed", a, d)
show("star wildcard:")
match s:
    case [_, _, *_]:
        print("only wildcards")
show("wildcards:")
match s:
    case [first, *rest]:
        print("star", first, rest)
show("star:")
match s:
    case [1, x, *_] if x > 5:
        pass
    case [*_, x, 4]:
        print("second case", x)
show("failed guard, then the next case:")


# A mapping pattern: the length, then the keys (value patterns evaluated
# after the mapping check), each looked up with get(key, sentinel); **rest
# copies through keys() and __getitem__.
class Keys:
    def __init__(self, name):
        self.name = name

    @property
    def key(self):
        log.append(f"key {self.name}")
        return self.name


K = Keys("a")


class Map(dict):
    def __len__(self):
        log.append("len")
        return super().__len__()

    def get(self, key, default=None):
        log.append(f"get {key!r}")
        return super().get(key, default)

    def __getitem__(self, key):
        log.append(f"getitem {key!r}")
        return super().__getitem__(key)

    def keys(self):
        log.append("keys")
        return super().keys()


m = Map(a=1, b=2, c=3)
match m:
    case {"z": _, K.key: _}:
        pass
    case {K.key: 1, "b": b, **rest}:
        print("matched", b, rest)
show("mapping:")
match [1, 2]:
    case {K.key: _}:
        pass
show("keys not evaluated for a non-mapping:")
match {"a": 1}:
    case {"a": 1, "b": 2}:
        pass
show("a short mapping fails on its length, no lookup:")

# get() must not add keys (a defaultdict keeps its contents)
from collections import defaultdict

dd = defaultdict(list, x=[1])
match dd:
    case {"y": _}:
        print("no")
    case {"x": [v]}:
        print("x", v, sorted(dd))


# A class pattern: isinstance, then __match_args__, then the attributes in
# order (an AttributeError is a failed match, other errors propagate).
class Meta(type):
    def __instancecheck__(cls, obj):
        log.append(f"isinstance {type(obj).__name__}")
        return type.__instancecheck__(cls, obj)


class Node(metaclass=Meta):
    __match_args__ = ("left", "right")

    def __init__(self, left, right, tag=None):
        self._left = left
        self._right = right
        if tag is not None:
            self.tag = tag

    @property
    def left(self):
        log.append("left")
        return self._left

    @property
    def right(self):
        log.append("right")
        return self._right


n = Node(1, Node(2, 3))
match n:
    case Node(1, Node(3, _)):
        pass
    case Node(1, Node(2, r), tag=t):
        pass
    case Node(l, Node(_, r)):
        print("matched", l, r)
show("class:")
match 5:
    case Node():
        pass
show("not an instance:")


# Names are bound only when the whole pattern matches; a guard runs after
# they are bound (and they stay bound when it fails).
def binding(subject):
    a = b = "unbound"
    match subject:
        case [a, b, 3]:
            result = "first"
        case [a, 9] if b == "unbound":
            result = "second"
        case [a, b] if False:
            result = "never"
        case _:
            result = "default"
    return result, a, b


print(binding([1, 2, 3]))
print(binding([1, 2, 4]))
print(binding([1, 9]))
print(binding([5, 6]))
print(binding("x"))

# an or-pattern that fails binds nothing; captured names of alternatives
for v in [(1, 2), [3], {"k": 4}, 5.5]:
    x = y = None
    match v:
        case (x, 2) | [x] | {"k": x}:
            print("bound", x)
        case _:
            print("nothing bound", x, y)


# Bindings happen in the order of the first alternative (module level: the
# order names enter the globals dict).
def new_globals(before):
    return [k for k in globals() if k not in before]


before = set(globals())
match (10, 20):
    case (bb1, bb2) | [bb2, bb1] if bb1 > 100:
        pass
    case [cc2, cc1] | (cc1, cc2):
        pass
print(new_globals(before), cc1, cc2)
before = set(globals())
match {"p": 1, "q": [2, 3]}:
    case {"q": [dd3, dd1], "p": dd2, **dd4}:
        pass
print(new_globals(before), dd1, dd2, dd3, dd4)


# In a class body, names go to the class namespace
class Config:
    match {"mode": "fast", "level": 3}:
        case {"mode": mode, "level": level}:
            description = f"{mode}/{level}"


print(Config.mode, Config.level, Config.description)


# closures, nonlocal and global captures
def outer():
    found = None

    def inner(v):
        nonlocal found
        match v:
            case [found, *_]:
                return True
        return False

    inner([7, 8])
    return found


print("nonlocal capture", outer())

G = 0


def set_global(v):
    global G
    match v:
        case int(G):
            pass


set_global(99)
print("global capture", G)

fns = []
for i in range(3):
    match i:
        case 0 | 1 as k:
            fns.append(lambda: ("small", k))
        case k:
            fns.append(lambda: ("big", k))
print([f() for f in fns])


# generators and comprehensions
def tokens(items):
    for item in items:
        match item:
            case int(n) if n < 0:
                yield ("neg", -n)
            case int(n) | float(n):
                yield ("num", n)
            case str(s) if s.isidentifier():
                yield ("name", s)
            case [*parts]:
                yield from tokens(parts)
            case _:
                yield ("?", item)


print(list(tokens([1, -2, 3.5, "abc", "1x", [4, ["y"]], None])))


def classify_all(values):
    return [kind for v in values for kind in [describe(v)]]


def describe(v):
    match v:
        case {"name": str(name), "tags": [*tags]} if tags:
            return f"{name}: {', '.join(tags)}"
        case {"name": str(name)}:
            return f"{name}: untagged"
        case [x, y] if x == y:
            return "pair of equals"
        case _:
            return "?"


print(classify_all([{"name": "a", "tags": ["x", "y"]}, {"name": "b", "tags": []}, [1, 1], [1, 2], 3]))
print({k: describe(v) for k, v in {"p": [2, 2], "q": {"name": "n"}}.items()})


# the guard can use the walrus; a yield in a guard
def walrus(v):
    match v:
        case [x, *rest] if (total := x + sum(rest)) > 10:
            return ("big", total)
        case [*rest]:
            return ("small", sum(rest))


print(walrus([5, 6]), walrus([1, 2]))


def guard_gen():
    match (yield "first"):
        case int(n) if (yield n * 2):
            yield "guard true"
        case _:
            yield "default"


g = guard_gen()
print(next(g), g.send(21), g.send(True))
g = guard_gen()
print(next(g), g.send(4), g.send(False))


# break / continue / return inside cases, in loops and try blocks
def control(values):
    out = []
    for v in values:
        try:
            match v:
                case "skip":
                    continue
                case "stop":
                    break
                case "return":
                    return out + ["returned"]
                case int(n):
                    out.append(n)
        finally:
            out.append("f")
    return out


print(control([1, "skip", 2, "stop", 3]))
print(control([1, "return", 2]))

while True:
    match "again":
        case "again":
            break
print("broke out of while")

# nested match statements
for a, b in [(1, "x"), (1, "y"), (2, "x")]:
    match a:
        case 1:
            match b:
                case "x":
                    print("1x")
                case _:
                    print("1?")
        case _:
            print("other", b)

# the subject may be any expression: a starred tuple, a walrus, a call
items = [1, 2]
match *items, 3:
    case (1, 2, 3):
        print("starred subject")
match (n := len(items)):
    case 2:
        print("walrus subject", n)
match 0, :
    case [0]:
        print("one-tuple subject")

# soft keywords stay names
match = {"case": [1, 2]}
case = "case"
match match:
    case {"case": [*case]}:
        print("match and case as names:", case, match)
