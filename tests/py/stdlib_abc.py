# abc (CPython's abc.py over _py_abc), collections.abc and numbers.
import abc
import collections.abc as cabc
import numbers
from collections import OrderedDict, deque, Counter


class Base(abc.ABC):
    @abc.abstractmethod
    def run(self):
        ...

    @property
    @abc.abstractmethod
    def name(self):
        ...

    @classmethod
    @abc.abstractmethod
    def make(cls):
        ...


try:
    Base()
except TypeError as e:
    print("TypeError", e)


class Half(Base):
    def run(self):
        return "run"


try:
    Half()
except TypeError as e:
    print("TypeError", e)


class Full(Half):
    name = "full"

    @classmethod
    def make(cls):
        return cls()


f = Full.make()
print(f.run(), f.name, isinstance(f, Base), sorted(Base.__abstractmethods__), Full.__abstractmethods__)


class Duck:
    def quack(self):
        return "quack"


class Quacker(metaclass=abc.ABCMeta):
    @classmethod
    def __subclasshook__(cls, C):
        if cls is Quacker:
            return any("quack" in B.__dict__ for B in C.__mro__)
        return NotImplemented


print(isinstance(Duck(), Quacker), issubclass(int, Quacker))


class Registered(abc.ABC):
    pass


Registered.register(tuple)
print(issubclass(tuple, Registered), isinstance((), Registered), issubclass(list, Registered))
print(type(Registered).__name__, abc.get_cache_token() is not None)

for obj in ([], (), {}, set(), frozenset(), "s", b"b", range(3), deque(), OrderedDict(), Counter(),
            {}.keys(), {}.items(), {}.values(), iter([]), (x for x in ()), len, 3, 2.5):
    kinds = [n for n in ("Iterable", "Iterator", "Generator", "Sized", "Container", "Collection",
                         "Sequence", "MutableSequence", "Set", "MutableSet", "Mapping",
                         "MutableMapping", "MappingView", "KeysView", "ItemsView", "ValuesView",
                         "Hashable", "Callable", "Reversible", "ByteString")
             if isinstance(obj, getattr(cabc, n))]
    print(type(obj).__name__, kinds)


class MySeq(cabc.Sequence):
    def __init__(self, data):
        self.data = data

    def __getitem__(self, i):
        return self.data[i]

    def __len__(self):
        return len(self.data)


s = MySeq([3, 1, 4, 1, 5])
print(list(s), 4 in s, s.index(1), s.count(1), list(reversed(s)))


class MyMap(cabc.MutableMapping):
    def __init__(self):
        self.d = {}

    def __getitem__(self, k):
        return self.d[k]

    def __setitem__(self, k, v):
        self.d[k] = v

    def __delitem__(self, k):
        del self.d[k]

    def __iter__(self):
        return iter(self.d)

    def __len__(self):
        return len(self.d)


m = MyMap()
m.update(a=1, b=2)
m.setdefault("c", 3)
print(sorted(m.items()), m.pop("a"), m.get("zz", 0), "b" in m, m == {"b": 2, "c": 3})


class MySet(cabc.Set):
    def __init__(self, it):
        self.s = set(it)

    def __contains__(self, x):
        return x in self.s

    def __iter__(self):
        return iter(sorted(self.s))

    def __len__(self):
        return len(self.s)


a, b = MySet([1, 2, 3]), MySet([2, 3, 4])
print(list(a & b), list(a | b), list(a - b), a <= MySet([1, 2, 3, 5]), a.isdisjoint([9]))
print(cabc.Callable[[int], str], cabc.Iterable[int])

print(isinstance(3, numbers.Integral), isinstance(2.5, numbers.Real), isinstance(1j, numbers.Complex),
      isinstance(2.5, numbers.Integral), issubclass(bool, numbers.Number), isinstance("x", numbers.Number))
