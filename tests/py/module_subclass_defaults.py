# types.ModuleType subclasses (lazy modules, module-level properties),
# __class__ assignment of a module, module reprs without a file, and a
# namedtuple whose __new__.__defaults__ is assigned after the class is made.
import sys
import types
import weakref
from collections import namedtuple


class M(types.ModuleType):
    def __init__(self, name, extra=1):
        super().__init__(name)
        self.extra = extra

    def hello(self):
        return "hi " + self.__name__

    @property
    def shout(self):
        return self.__name__.upper()


m = M("mymod", 5)
print(m, type(m).__name__, m.extra, m.hello(), m.shout, isinstance(m, types.ModuleType))
print(m.__dict__["__name__"], m.__dict__ is vars(m), sorted(k for k in vars(m) if not k.startswith("__")))
exec("y = extra * 2\ndef f():\n    return y + 1", vars(m))
print(m.y, m.f(), weakref.ref(m)() is m)
sys.modules["mymod"] = m
import mymod
from mymod import y
print(mymod is m, y)
del sys.modules["mymod"]


class Lazy(types.ModuleType):
    def __getattr__(self, name):
        return "lazy " + name


this = sys.modules[__name__]
CONSTANT = 1


def read_constant(mod):
    return mod.CONSTANT


print(type(this).__name__, read_constant(this), read_constant(this))
this.__class__ = Lazy
print(type(this).__name__, this.whatever, read_constant(this))


class Shadow(types.ModuleType):
    @property
    def CONSTANT(self):
        return "from the property"


this.__class__ = Shadow
print(read_constant(this))
this.__class__ = types.ModuleType
print(type(this).__name__, read_constant(this))
try:
    this.__class__ = int
except TypeError as e:
    print("TypeError", e)

print(types.ModuleType("plain"), types.ModuleType("doc", "the doc").__doc__)
bare = types.ModuleType.__new__(types.ModuleType)
print(repr(bare), vars(bare))
bare.__init__("named")
print(repr(bare), sorted(vars(bare)))
with_loader = types.ModuleType("withloader")
with_loader.__loader__ = "a loader"
print(repr(with_loader))
try:
    types.ModuleType()
except TypeError as e:
    print("TypeError", e)
try:
    types.ModuleType(3)
except TypeError as e:
    print("TypeError", e)

P = namedtuple("P", "x y z")
try:
    P(1)
except TypeError as e:
    print("TypeError", e)
P.__new__.__defaults__ = (0, 0)
print(P(1), P(1, 2), P(1, 2, 3), P.__new__.__defaults__)
Q = namedtuple("Q", "a b", defaults=[7])
print(Q(1), Q._field_defaults, Q.__new__.__defaults__, Q.__new__.__qualname__)
Q.__new__.__defaults__ = None
try:
    Q(1)
except TypeError as e:
    print("TypeError", e)
