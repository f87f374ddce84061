class C:
    """Doc of C."""
    a = 1
    def m(self):
        return self.a
print(C.__name__, C.__qualname__, C.__doc__, C.__module__, C.a, C().m(), C.m.__name__, C.m.__qualname__)
class Outer:
    class Inner:
        def f(self): pass
print(Outer.Inner.__qualname__, Outer.Inner.f.__qualname__, Outer.Inner().f.__self__.__class__.__name__)
print(type(C.m).__name__, type(C().m).__name__, C().m.__func__ is C.m)
c = C(); c.a = 5; print(c.a, C.a, c.__class__ is C, C.__dict__["a"], "m" in C.__dict__)
C.b = 2; print(c.b, sorted(k for k in vars(C) if not k.startswith("__")))
print(isinstance(C, type), type(C) is type, type(type) is type, C.__bases__, object.__bases__)
def method(self): return "late " + str(self.a)
C.late = method; print(c.late())
bound = c.m; print(bound(), bound.__self__ is c)
print(str(C).startswith("<class"), repr(C), repr(int), repr(type), repr(len))
