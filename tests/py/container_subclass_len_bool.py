# The truth of a built-in container's subclass comes from its __len__, defined in the class or set
# on it later (pytz's LazyList fills itself on first use); the built-ins have no __bool__ of their own
import collections


def show(t, n):
    class Sub(t):
        pass
    empty = Sub()
    Sub.__len__ = lambda self: n
    after_set = bool(empty)
    del Sub.__len__
    class Own(t):
        def __len__(self):
            return n
    print(t.__name__, "__bool__" in vars(t), after_set, bool(empty), bool(Own()))


for t in (list, tuple, dict, set, frozenset, str, bytes, bytearray, collections.deque):
    show(t, 2)
print("__bool__" in vars(range), bool(range(0)), bool(range(3)))


class Lazy(list):
    def __new__(cls, fill):
        class L(list):
            pass
        def lazy(self, *a):
            if fill:
                list.extend(self, fill.pop())
                del L.__len__
            return list.__len__(self, *a)
        L.__len__ = lazy
        return L()


x = Lazy([[1, 2]])
print(bool(x), x, bool(Lazy([[]])))
