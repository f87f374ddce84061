# The eval loop's attribute caches for __slots__ members (load and store),
# stores through other data descriptors, and attributes read on classes:
# each site runs many times (so its cache fills), then the class changes
# under it and the site must see the change.


class P:
    __slots__ = ("x", "y")

    def __init__(self, x, y):
        self.x = x
        self.y = y


def load_x(objs):
    return [o.x for o in objs]


def store_x(objs, v):
    for o in objs:
        o.x = v


ps = [P(i, -i) for i in range(50)]
print(sum(load_x(ps)))
store_x(ps, 7)
print(sum(load_x(ps)))

# An unset slot raises AttributeError from the cached site.
q = P.__new__(P)
try:
    load_x(ps + [q])
except AttributeError as e:
    print("AttributeError", e)
del ps[0].x
try:
    load_x(ps)
except AttributeError as e:
    print("AttributeError", e)
store_x(ps + [q], 3)
print(sum(load_x(ps + [q])))


# A subclass with more slots and one with a dict share the sites.
class PP(P):
    __slots__ = ("z",)


class PD(P):
    pass


mixed = [P(1, 2), PP(3, 4), PD(5, 6), P(7, 8)] * 10
print(sum(load_x(mixed)))
store_x(mixed, 2)
print(sum(load_x(mixed)))
mixed[2].w = 1
print(mixed[2].w, sorted(vars(mixed[2])))

# Replacing the slot descriptor on the class with a property: the caches
# must stop reading the slot.
saved = P.x
P.x = property(lambda self: "prop", lambda self, v: print("set", v))
print(load_x(ps[:2]))
store_x(ps[:2], 9)
P.x = saved
print(load_x(ps[:3]))


# Stores through properties and other data descriptors.
class Celsius:
    def __init__(self):
        self._t = 0

    @property
    def t(self):
        return self._t

    @t.setter
    def t(self, v):
        if v < -273:
            raise ValueError("too cold")
        self._t = v


class Logged:
    def __set_name__(self, owner, name):
        self.name = "_" + name

    def __get__(self, obj, typ=None):
        return self if obj is None else getattr(obj, self.name, None)

    def __set__(self, obj, v):
        setattr(obj, self.name, v * 2)


class Box:
    v = Logged()


def set_t(objs, v):
    for o in objs:
        o.t = v


cs = [Celsius() for _ in range(30)]
set_t(cs, 20)
print(sum(c.t for c in cs))
try:
    set_t(cs, -300)
except ValueError as e:
    print("ValueError", e)
boxes = [Box() for _ in range(30)]
for b in boxes:
    b.v = 5
print(sum(b.v for b in boxes))
# The property loses its setter: the cached store must raise now.
Celsius.t = property(lambda self: self._t)
try:
    set_t(cs, 1)
except AttributeError as e:
    print("AttributeError", type(e).__name__)
# And with no descriptor at all the store goes to the instance dict.
del Celsius.t
set_t(cs, 4)
print(sum(c.t for c in cs), "t" in vars(cs[0]))


# Attributes read on classes: plain values, functions, classmethods,
# staticmethods, inherited ones, and changes to them.
class Strength:
    REQUIRED = 0
    WEAK = 5

    @classmethod
    def stronger(cls, a, b):
        return (cls.__name__, a < b)

    @staticmethod
    def weakest():
        return "weakest"

    def plain(self):
        return "plain"


class Sub(Strength):
    pass


def read(cls):
    out = []
    for _ in range(20):
        out = [cls.REQUIRED, cls.WEAK, cls.stronger(1, 2), cls.weakest(), cls.plain(None)]
    return out


print(read(Strength))
print(read(Sub))
Sub.WEAK = 6
print(read(Sub), read(Strength))
Strength.REQUIRED = -1
print(read(Sub), read(Strength))
del Sub.WEAK
print(read(Sub))
Strength.weakest = staticmethod(lambda: "replaced")
print(read(Sub))


# A metaclass attribute: a data descriptor there wins over the class's.
class Meta(type):
    @property
    def REQUIRED(cls):
        return "meta"


class WithMeta(metaclass=Meta):
    REQUIRED = 1
    WEAK = 2

    @classmethod
    def stronger(cls, a, b):
        return "m"

    @staticmethod
    def weakest():
        return "w"

    def plain(self):
        return "p"


print(read(WithMeta))
print(read(Strength))

# Classes and instances at the same site.
def name_of(objs):
    return [o.__name__ if isinstance(o, type) else o.WEAK for o in objs]


print(name_of([Strength, Sub, Strength(), Sub(), int]))


def weak_of(objs):
    return [o.WEAK for o in objs]


print(weak_of([Strength, Strength(), Sub, Sub()] * 3))
try:
    weak_of([Strength, int])
except AttributeError as e:
    print("AttributeError", e)
