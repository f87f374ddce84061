# One attribute-load site that sees instances of several classes (inline
# caches that serve more than one type), and classes whose __iter__ is a
# generator function (a call that makes a generator without a frame).


class Base:
    def __init__(self, a, b):
        self.a = a
        self.b = b

    def get(self):
        return self.a, self.b


class Left(Base):
    def __init__(self, a, b):
        self.extra = "left"
        super().__init__(a, b)


class Right(Base):
    pass


class Third(Base):
    def __init__(self, a, b):
        self.z = 0
        self.y = 1
        super().__init__(a, b)


def pull(objs):
    return [o.get() for o in objs] + [(o.a, o.b) for o in objs]


objs = [Left(1, 2), Right(3, 4), Third(5, 6)] * 4
for _ in range(3):
    print(pull(objs)[:6])

# an attribute removed from one instance, a property added to one class,
# a class attribute shadowed by an instance attribute: each site sees it
r = objs[1]
del r.a
try:
    print(pull(objs))
except AttributeError as e:
    print("AttributeError", e)
r.a = "back"
print(pull(objs)[:3])
Right.a = property(lambda self: "prop")
print(pull(objs)[:6])
del Right.a
print(pull(objs)[:6])
Left.b = "class-b"
print(pull(objs)[:3])
del objs[0].b
print(pull(objs)[:3])

# __getattr__ on one of the classes and __slots__ on another at one site
class Dyn(Base):
    def __getattr__(self, name):
        return "dyn-" + name


class Slotted:
    __slots__ = ("a", "b")

    def __init__(self, a, b):
        self.a = a
        self.b = b

    def get(self):
        return self.a, self.b


mix = [Left(1, 2), Right(3, 4), Dyn(5, 6), Slotted(7, 8)] * 3
for _ in range(3):
    print(pull(mix)[-4:])
d = mix[2]
del d.a
print(d.a, pull(mix)[2])


# __iter__ as a generator function: arguments, defaults, closures, errors
class Tree:
    def __init__(self, left, value, right):
        self.left, self.value, self.right = left, value, right

    def __iter__(self):
        if self.left:
            yield from self.left
        yield self.value
        if self.right:
            yield from self.right


def build(lo, hi):
    if lo >= hi:
        return None
    mid = (lo + hi) // 2
    return Tree(build(lo, mid), mid, build(mid + 1, hi))


t = build(0, 50)
print(sum(t), list(t)[:10], sum(1 for _ in t))
it = iter(t)
print(type(it).__name__, next(it), it.gi_running, next(it))


class WithCell:
    def __init__(self, n):
        self.n = n

    def __iter__(self):
        n = self.n
        def inner():
            return n
        for i in range(n):
            yield i + inner()


print(list(WithCell(3)))


def gen_args(a, b=10, *rest):
    yield a + b + sum(rest)


print(list(gen_args(1)), list(gen_args(1, 2)), list(gen_args(1, 2, 3, 4)))
try:
    gen_args()
except TypeError as e:
    print("TypeError", e)


def many(a, b, c, d, e, f, g, h, i, j):
    yield a + b + c + d + e + f + g + h + i + j


print(list(many(*range(10))))


class BadIter:
    def __iter__(self):
        yield 1
        raise ValueError("in iter")


try:
    print(list(BadIter()))
except ValueError as e:
    print("ValueError", e)
print(iter(Tree(None, 1, None)).__qualname__)
