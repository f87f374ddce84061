class A:
    def f(self): return "A.f"
    @classmethod
    def c(cls): return "A.c:" + cls.__name__
class B(A):
    def f(self): return "B.f>" + super().f()
    @classmethod
    def c(cls): return "B.c>" + super().c()
class C(B):
    def f(self): return "C.f>" + super(B, self).f()
print(C().f(), B().f(), C.c(), super(C, C()).f())
class Init:
    def __init__(self, x): self.x = x
class Init2(Init):
    def __init__(self, x, y):
        super().__init__(x)
        self.y = y
i = Init2(1, 2); print(i.x, i.y)
