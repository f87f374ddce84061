errs = [ValueError(), ValueError("one"), ValueError("one", 2), KeyError("k"), KeyError(), IndexError(3), Exception(None), OSError(1, "perm")]
for e in errs:
    print(type(e).__name__, repr(str(e)), repr(e), e.args)
class WithInit(Exception):
    def __init__(self, a, b):
        super().__init__(a)
        self.b = b
w = WithInit("A", "B")
print(str(w), w.args, w.b, repr(w))
class NoSuper(Exception):
    def __init__(self, x):
        self.x = x
n = NoSuper(5)
print(repr(str(n)), n.args, n.x)
