# Private names in __slots__ are mangled as the compiler mangles attribute
# names in the class body (CPython's _Py_Mangle rules).
class P:
    __slots__ = ("__m", "__dunder__", "_single", "plain")

    def __init__(self):
        self.__m = 1
        self.__dunder__ = 2
        self._single = 3
        self.plain = 4

    def total(self):
        return self.__m + self.__dunder__ + self._single + self.plain


p = P()
print(p.total(), p._P__m, sorted(k for k in P.__dict__ if not k.startswith("__") or k == "__dunder__"))
object.__setattr__(p, "_P__m", 10)
print(p.total())


class _Under:
    __slots__ = ("__x",)


print("_Under__x" in _Under.__dict__)


class ___:
    __slots__ = ("__y",)


print("__y" in ___.__dict__)
try:
    p.__m = 5
except AttributeError as e:
    print("AttributeError", e)
