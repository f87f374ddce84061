# del o[k] on what does not support it: CPython's "doesn't" (its sequence path: an index on a type
# with sequence methods) or "does not" (attrs' tests match mappingproxy's)
import types


class A:
    pass


for o, k in ((types.MappingProxyType({}), "a"), (types.MappingProxyType({}), 0), ((1,), 0), ((1,), "a"),
             ("s", 0), (frozenset(), 0), (5, 0), (None, "a"), (object(), 0), (A(), 0), (A(), "k")):
    try:
        del o[k]
    except TypeError as e:
        print(e)
    try:
        o[k] = 1
    except TypeError as e:
        print(e)
