def f(*a, **k): pass
class A:
    def m(self, *a): pass
    @classmethod
    def c(cls, *a): pass
cases = ["f(*1)", "f(0, *1)", "print(*1)", "f(**1)", "[*1]", "f(*1, 2)", "A().m(*1)", "A.c(*1)", "f(*1, x=2)", "f(*None)", "len(*1)", "f(*[1], *2)", "(lambda *a: 0)(*1)", "max(*1, key=None)"]
for c in cases:
    try:
        eval(c)
    except TypeError as e:
        print(c, "->", e)
print(f(*[1, 2]), f(*(x for x in range(3))))
class BadIter:
    def __iter__(self): raise TypeError("my own")
class GetItem:
    def __getitem__(self, i):
        if i < 2: return i
        raise IndexError
for c in ["f(*BadIter())", "print(*BadIter())", "f(0, *BadIter())"]:
    try:
        eval(c)
    except TypeError as e:
        print(c, "->", e)
print(f(*GetItem()), [*GetItem()])
