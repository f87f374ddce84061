# abc over the native _abc module (CPython's: tmpy had only _py_abc, whose
# frames broke typing's runtime protocols: "Protocols with non-method members
# don't support issubclass()" from isinstance()). Registry, caches, hooks,
# abstract methods, cache tokens, and the protocol checks of pyperformance's
# typing_runtime_protocols.
import abc
import collections.abc as cabc
from typing import Protocol, SupportsInt, runtime_checkable

print(abc.ABCMeta.__module__, hasattr(abc, "_abc_init"))


class Base(abc.ABC):
    @abc.abstractmethod
    def run(self): ...

    @property
    @abc.abstractmethod
    def size(self): ...

    def other(self):
        return 1


print(sorted(Base.__abstractmethods__))
try:
    Base()
except TypeError as e:
    print("TypeError", "abstract" in str(e))


class Half(Base):
    def run(self):
        return "run"


print(sorted(Half.__abstractmethods__))


class Full(Half):
    size = 3


print(sorted(Full.__abstractmethods__), Full().run(), isinstance(Full(), Base), issubclass(Full, Base))


class Unrelated:
    pass


token = abc.get_cache_token()
print(isinstance(Unrelated(), Base), issubclass(Unrelated, Base))
print(Base.register(Unrelated) is Unrelated, abc.get_cache_token() != token)
print(isinstance(Unrelated(), Base), issubclass(Unrelated, Base))
print(Base.register(Full) is Full)   # already a subclass: no change
try:
    Base.register(3)
except TypeError as e:
    print("TypeError", e)
try:
    Full.register(Base)
except RuntimeError as e:
    print("RuntimeError", e)
try:
    issubclass(3, Base)
except TypeError as e:
    print("TypeError", e)

registry, cache, negative, version = abc._get_dump(Base)
print(type(registry).__name__, len(registry), len(cache) >= 1, isinstance(version, int))
Base._abc_caches_clear()
print(len(abc._get_dump(Base)[1]), issubclass(Full, Base), len(abc._get_dump(Base)[1]))
Base._abc_registry_clear()
Base._abc_caches_clear()
print(len(abc._get_dump(Base)[0]), issubclass(Unrelated, Base))


class Sized(abc.ABC):
    @classmethod
    def __subclasshook__(cls, other):
        if cls is Sized:
            return hasattr(other, "__len__")
        return NotImplemented


class Bad(abc.ABC):
    @classmethod
    def __subclasshook__(cls, other):
        return 42


print(isinstance([], Sized), isinstance(3, Sized), issubclass(dict, Sized))
try:
    issubclass(int, Bad)
except AssertionError as e:
    print("AssertionError", e)

print(isinstance([], cabc.Sequence), isinstance({}, cabc.Mapping), isinstance(iter([]), cabc.Iterator),
      isinstance(3, cabc.Hashable), isinstance([], cabc.Hashable), issubclass(str, cabc.Collection))


class NotIt:
    __class__ = list   # __class__ differs from type(): both are checked


print(isinstance(NotIt(), cabc.Sequence), isinstance(NotIt(), cabc.Hashable))


@runtime_checkable
class HasX(Protocol):
    x: int


@runtime_checkable
class HasXAndInt(Protocol):
    x: int

    def __int__(self) -> int: ...


class InstX:
    def __init__(self):
        self.x = 1


class ClassX:
    x = 2

    def __int__(self):
        return 2


class PropX:
    @property
    def x(self):
        return 3


class Empty:
    pass


for o in (InstX(), ClassX(), PropX(), Empty(), 3):
    print(type(o).__name__, isinstance(o, HasX), isinstance(o, HasXAndInt), isinstance(o, SupportsInt))
try:
    issubclass(InstX, HasX)
except TypeError as e:
    print("TypeError", e)
print(issubclass(ClassX, SupportsInt), issubclass(Empty, SupportsInt))
