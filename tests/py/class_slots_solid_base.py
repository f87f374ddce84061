# Multiple inheritance over one __slots__ class: bases that add no slot of
# their own (nothing, an empty __slots__, or only __dict__ / __weakref__)
# share its layout, so they combine (CPython's solid-base rule; pathlib's
# PosixPath(Path, PurePosixPath) is this shape). Bases that each add a slot
# still conflict.
import weakref


class A:
    __slots__ = ("x",)


class B(A):
    pass


class C(A):
    __slots__ = ()


class D(B, C):
    pass


d = D()
d.x = 1
d.other = 2
print(type(d).__mro__[1:], d.x, d.other, sorted(vars(d)))


class WithDict(A):
    __slots__ = ("__dict__",)


class WithWeak(A):
    __slots__ = ("__weakref__",)


class Both(WithDict, WithWeak):
    __slots__ = ("y",)


b = Both()
b.x, b.y, b.z = 1, 2, 3
r = weakref.ref(b)
print(b.x, b.y, b.z, r() is b, hasattr(Both, "__weakref__"), hasattr(Both, "__dict__"))


class PurePath:
    __slots__ = ("_drv", "_root", "_parts")


class PurePosixPath(PurePath):
    __slots__ = ()


class Path(PurePath):
    __slots__ = ()


class PosixPath(Path, PurePosixPath):
    __slots__ = ()


p = PosixPath()
p._drv, p._root, p._parts = "", "/", ["usr"]
print([c.__name__ for c in PosixPath.__mro__], p._root, p._parts)
try:
    p.nope = 1
except AttributeError as e:
    print("AttributeError", e)


# a deeper chain: the owner is found through bases that add nothing
class E(D):
    pass


class F(C):
    __slots__ = ("__weakref__",)


class G(E, F):
    pass


g = G()
g.x = 5
print(g.x, weakref.ref(g)() is g)


def conflict(*bases):
    try:
        type("X", bases, {})
        print("ok", [b.__name__ for b in bases])
    except TypeError as e:
        print("TypeError", e)


class S1(A):
    __slots__ = ("s1",)


class S2(A):
    __slots__ = ("s2",)


class T1:
    __slots__ = ("t",)


conflict(S1, S2)
conflict(S1, B)
conflict(B, S2)
conflict(T1, A)
conflict(D, T1)
conflict(S1, C, B)
for builtin in (int, list, dict, str, tuple, Exception):
    conflict(builtin, T1)


class LS(list):
    __slots__ = ("extra",)


class LS2(LS):
    pass


conflict(LS2, list)
conflict(LS2, LS)


# __weakref__: a descriptor in the class that introduces weak references
class Plain:
    pass


class Sub(Plain):
    pass


class L(list):
    pass


class Meta(type):
    pass


class Err(Exception):
    pass


for c in (Plain, Sub, A, B, C, D, WithWeak, Both, L, Meta, Err):
    print(c.__name__, "__weakref__" in c.__dict__, hasattr(c, "__weakref__"), "__dict__" in c.__dict__)
print(Plain.__weakref__, Plain.__dict__["__weakref__"].__objclass__)
o = Plain()
print(o.__weakref__)
ref = weakref.ref(o)
print(o.__weakref__ is ref, Plain.__dict__["__weakref__"].__get__(o) is ref)
try:
    o.__weakref__ = 1
except AttributeError as e:
    print("AttributeError", e)
