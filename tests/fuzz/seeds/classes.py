import functools
from collections import namedtuple as nt, OrderedDict


class Base:
    """A base class."""
    count: int = 0

    def __init__(self, name, *, tags=(), **extra):
        self.name = name
        self.tags = list(tags)
        self.__dict__.update(extra)
        Base.count += 1

    @property
    def label(self):
        return f"{self.name!r} [{', '.join(self.tags)}]"

    @staticmethod
    def make(*args):
        return Base(*args)

    def __repr__(self):
        return "%s(%r)" % (type(self).__name__, self.name)


class Child(Base, metaclass=type):
    def __init__(self, *a, **k):
        super().__init__(*a, **k)

    def walk(self, depth=0):
        for i in range(depth):
            yield i
        yield from self.tags


@functools.lru_cache(maxsize=None)
def fib(n):
    return n if n < 2 else fib(n - 1) + fib(n - 2)


def closure():
    x = 0

    def inc():
        nonlocal x
        x += 1
        return x
    return inc


if __name__ == "__main__":
    c = Child("c", tags=["a", "b"], extra=1)
    print(c.label, list(c.walk(3)), fib(20), closure()())
