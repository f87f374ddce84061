class Singleton:
    _inst = None
    def __new__(cls, *a):
        if cls._inst is None:
            cls._inst = super().__new__(cls)
            print("created")
        return cls._inst
    def __init__(self, v):
        self.v = v
a, b = Singleton(1), Singleton(2)
print(a is b, a.v)
class Pos(int):
    def __new__(cls, v):
        return super().__new__(cls, abs(v))
p = Pos(-5); print(p, p + 1, type(p).__name__, isinstance(p, int))
class MyList(list):
    def total(self): return sum(self)
m = MyList([1, 2, 3]); m.append(4); print(m, m.total(), len(m), m[1:], type(m).__name__)
class MyDict(dict):
    def __missing__(self, k): return k * 2
md = MyDict(a=1); print(md["a"], md["zz"], md, len(md))
class MyStr(str):
    def shout(self): return self.upper() + "!"
s = MyStr("hey"); print(s.shout(), s + "x", len(s), s == "hey")
class E(Exception):
    def __str__(self): return "custom str"
print(str(E()), repr(E("x")))
T = type("T", (object,), {"x": 1, "get": lambda self: self.x * 10})
print(T().get(), T.__name__, type(T))
