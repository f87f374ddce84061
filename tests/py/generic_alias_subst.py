# types.GenericAlias with type variables (objects with __typing_subst__, as
# typing.TypeVar): __parameters__, substitution, count errors; GenericAlias
# subclasses with __slots__ and with a __dict__.
import types

GA = types.GenericAlias


class T:
    def __init__(self, n):
        self.__name__ = n

    def __typing_subst__(self, arg):
        if arg == 0:
            raise TypeError(f"{self.__name__} cannot be 0")
        return arg

    def __repr__(self):
        return "~" + self.__name__

    def __eq__(self, other):   # identity still tells type variables apart
        return isinstance(other, T)

    __hash__ = object.__hash__


T1, T2, T3 = T("T1"), T("T2"), T("T3")
a = dict[str, T1]
print(a, a.__parameters__, a[int], type(a[int]))
print(a[int] == dict[str, int], a[list[int]])
b = dict[T1, list[T2]]
print(b.__parameters__, b[int, str], b[int, list[T1]], b[int, list[T1]].__parameters__)
print(list[T1][T2][int], tuple[T1, T2, T1][int, str], tuple[T1, T2, T1].__parameters__)
print(tuple[T1, dict[T2, T3], T1].__parameters__, tuple[T1, dict[T2, T3], T1][int, str, bytes])
for key in [(int,), (int, str, float), ()]:
    try:
        print(b[key])
    except TypeError as e:
        print("TypeError:", e)
for bad in (list[int], dict[str, int]):
    try:
        bad[int]
    except TypeError as e:
        print("TypeError:", e)
try:
    a[0]
except TypeError as e:
    print("TypeError:", e)
print(list[(T1, T2)].__parameters__, list[int, T1, int].__parameters__, list[()].__parameters__)


# A parameter that reshapes the key first (as TypeVarTuple and ParamSpec do).
class Prep(T):
    def __typing_prepare_subst__(self, alias, args):
        print("prepare", alias, args)
        return args + args if len(args) == 1 else args


P = Prep("P")
print(dict[P, T1][int], dict[P, T1][int, str])


# A non-alias arg with __parameters__ is subscripted with its items.
class Box:
    def __init__(self, params):
        self.__parameters__ = params

    def __getitem__(self, items):
        return ("Box", items)

    def __repr__(self):
        return "Box"


print(list[Box((T1, T2))].__parameters__, list[Box((T1, T2))][int, str], list[Box(())][()] if False else "-")
print(list[Box("not a tuple")].__parameters__)


# A TypeVarTuple-like parameter: iterable, groups its items, spread back.
class TVT(T):
    __typing_is_unpacked_typevartuple__ = True

    def __iter__(self):
        yield self

    def __typing_prepare_subst__(self, alias, args):
        return (args[0], tuple(args[1:]))


Ts = TVT("Ts")
print(tuple[T1, Ts].__parameters__, tuple[T1, Ts][int, str, bytes], tuple[T1, Ts][int])
print(list[Box((T1, Ts))][int, str, bytes])


class G(GA):
    __slots__ = ('x', 'y')


g = G(list, (int,))
print(g, type(g).__name__, g.__args__, g.__origin__)
g.x = 5
try:
    print(g.x)
except AttributeError as e:
    print("AttributeError:", e)
print(G.__dict__['x'].__get__(g))
G.__dict__['y'].__set__(g, [1])
print(G.__dict__['y'].__get__(g))
try:
    g.z = 1
except AttributeError as e:
    print("AttributeError:", e)
print(g.__dict__ == list.__dict__)
print(G(list, (T1,))[int], type(G(list, (T1,))[int]).__name__)


class H(GA):
    pass


h = H(dict, (str, int))
h.foo = 3
print(h, h == dict[str, int], hash(h) == hash(dict[str, int]))


class K(GA):
    __slots__ = ()


k = K(list, int)
try:
    k.a = 1
except AttributeError as e:
    print("AttributeError:", e)
print(k, k[()] if False else "", k.__parameters__)
