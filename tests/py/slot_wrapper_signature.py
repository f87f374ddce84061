# Slot wrappers' __text_signature__ (CPython's slot table): inspect.signature of object.__init__,
# which pluggy's varnames asks for a class without __init__, and of other dunders
import inspect


class C:
    pass


for f in (object.__init__, object.__repr__, int.__add__, int.__pow__, int.__rpow__, object.__eq__,
          object.__setattr__, object.__delattr__, object.__hash__, property.__get__, property.__set__,
          list.__len__, list.__setitem__, list.__contains__, type.__call__, (1).__add__, C().__init__):
    print(f.__name__, f.__text_signature__, inspect.signature(f))
print(list(inspect.signature(C.__init__).parameters))
