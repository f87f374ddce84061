# object.__reduce_ex__ / __reduce__ / __getstate__ and BaseException.__reduce__ / __setstate__, through CPython's copy and copyreg.
import copy, copyreg
class P:
    def __init__(self): self.a = [1]; self.b = {"k": (2, 3)}
class S:
    __slots__ = ("x", "y", "__dict__")
class L(list): pass
class D(dict): pass
class I(int): pass
class NA:
    def __init__(self, v): self.v = v
    def __getnewargs__(self): return (self.v,)
    def __new__(cls, v): o = object.__new__(cls); return o
p = P(); q = copy.deepcopy(p); print(q.a, q.b, q.a is p.a, copy.copy(p).a is p.a)
s = S(); s.x = 1; s.z = 3; t = copy.copy(s); print(t.x, hasattr(t, "y"), t.z, s.__reduce_ex__(2)[2])
l = L([1, 2]); l.attr = 5; m = copy.deepcopy(l); print(type(m).__name__, m, m.attr)
d = D(a=1); print(copy.copy(d), type(copy.copy(d)).__name__)
print(copy.copy(I(5)) + 1, type(copy.deepcopy(I(7))).__name__)
print(copy.copy(NA(4)).v, P().__reduce_ex__(2)[0] is copyreg.__newobj__, P().__getstate__())
print(object().__reduce_ex__(2)[1:], S().__getstate__())
import threading
try:
    copy.copy(threading.Lock())
except TypeError as e:
    print("TypeError", e)
print(copy.deepcopy([1, {2: (3, [4])}, "s", None, 1.5]))
class R:
    def __reduce__(self): return (R, ())
print(type(copy.copy(R())).__name__)
e = ValueError(1, 2); print(e.__reduce__())
e.note = "n"; print(e.__reduce__())
c = copy.copy(e); print(type(c).__name__, c.args, c.note)
class MyErr(Exception):
    def __init__(self, a, b="x"):
        super().__init__(a)
        self.b = b
m = copy.deepcopy(MyErr(3, "y")); print(m.args, m.b)
k = copy.copy(KeyError("k")); print(repr(k), str(k))
s = StopIteration(5); print(copy.copy(s).value)
