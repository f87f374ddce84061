# isinstance/issubclass with class-like objects that are not types (CPython's
# abstract protocol: a __bases__ tuple, instances with a __class__), and
# instances whose __class__ says another type (proxies, mocks).


class AbstractClass:
    def __init__(self, bases):
        self.bases = bases

    def getbases(self):
        return self.bases
    __bases__ = property(getbases)

    def __call__(self):
        return AbstractInstance(self)


class AbstractInstance:
    def __init__(self, klass):
        self.klass = klass

    def getclass(self):
        return self.klass
    __class__ = property(getclass)


AbstractSuper = AbstractClass(bases=())
AbstractChild = AbstractClass(bases=(AbstractSuper,))
Other = AbstractClass(bases=(AbstractChild, AbstractSuper))
print(isinstance(AbstractChild(), AbstractSuper), isinstance(AbstractSuper(), AbstractChild),
      isinstance(Other(), AbstractSuper), isinstance(AbstractChild(), (int, AbstractChild)))
print(issubclass(AbstractChild, AbstractSuper), issubclass(AbstractSuper, AbstractChild),
      issubclass(Other, AbstractChild), issubclass(AbstractChild, (int, AbstractSuper)))


class Fake:
    __class__ = property(lambda self: int)


print(isinstance(Fake(), int), isinstance(Fake(), Fake), isinstance(Fake(), str))


class Raises:
    __class__ = property(lambda self: 1 / 0)


for args in [(Raises(), bool), (1, AbstractClass(bases=5)), (1, 42)]:
    try:
        print(isinstance(*args))
    except (ZeroDivisionError, TypeError) as e:
        print(type(e).__name__, e)
for args in [(42, AbstractSuper), (AbstractChild, 42), (int, AbstractSuper), (AbstractSuper, int)]:
    try:
        print(issubclass(*args))
    except TypeError as e:
        print("TypeError", e)

# many bases: each is checked in turn (recursion with a bound)
class Wide:
    def __init__(self, depth):
        self.depth = depth

    @property
    def __bases__(self):
        return (Wide(self.depth - 1), AbstractSuper) if self.depth else ()


print(issubclass(Wide(50), AbstractSuper), issubclass(Wide(0), AbstractSuper))


class Looping:
    @property
    def __bases__(self):
        return (self, self)


try:
    issubclass(Looping(), AbstractSuper)
except RecursionError:
    print("RecursionError")

# a parameterized generic is neither a type nor class-like (its __bases__ is its origin's)
import collections.abc


def f():
    pass


for cls in [collections.abc.Callable[[], None], list[int], (int, dict[str, int])]:
    try:
        print(isinstance(f, cls))
    except TypeError as e:
        print("TypeError", e)
try:
    issubclass(type(f), collections.abc.Callable[[int], int])
except TypeError as e:
    print("TypeError", e)
print(list[int].__bases__, isinstance(f, collections.abc.Callable))
