# BaseExceptionGroup / ExceptionGroup: constructor rules, attributes, split,
# subgroup, derive, nesting (PEP 654).
def t(f):
    try:
        r = f()
        print("ok", type(r).__name__, repr(r))
    except Exception as e:
        print(type(e).__name__, e)

t(lambda: ExceptionGroup())
t(lambda: ExceptionGroup("a"))
t(lambda: ExceptionGroup("a", [ValueError()], 3))
t(lambda: ExceptionGroup(1, [ValueError()]))
t(lambda: ExceptionGroup("a", 5))
t(lambda: ExceptionGroup("a", []))
t(lambda: ExceptionGroup("a", [1]))
t(lambda: ExceptionGroup("a", [ValueError(), 1]))
t(lambda: ExceptionGroup("a", [KeyboardInterrupt()]))
t(lambda: BaseExceptionGroup("a", [KeyboardInterrupt()]))
t(lambda: BaseExceptionGroup("a", [ValueError()]))
t(lambda: ExceptionGroup("a", (ValueError(),), x=1))
t(lambda: ExceptionGroup("a", {ValueError()}))
t(lambda: ExceptionGroup("a", "ab"))
t(lambda: ExceptionGroup("a", [ValueError()]).split(5))
t(lambda: ExceptionGroup("a", [ValueError()]).split())
t(lambda: ExceptionGroup("a", [ValueError()]).subgroup((ValueError, 1)))
t(lambda: ExceptionGroup("a", [ValueError()]).split(ExceptionGroup))
t(lambda: ExceptionGroup("a", [ValueError()]).split(int))
t(lambda: ExceptionGroup("a", [ValueError()]).split((ValueError,)))


class MyEG(ExceptionGroup):
    pass


class MyBEG(BaseExceptionGroup):
    pass


class Both(BaseExceptionGroup, Exception):
    pass


t(lambda: MyEG("a", [KeyboardInterrupt()]))
t(lambda: MyBEG("a", [ValueError()]))
t(lambda: Both("a", [KeyboardInterrupt()]))
print([c.__name__ for c in Both.__mro__])

e = ExceptionGroup("m", [ValueError(1)])
t(lambda: setattr(e, 'message', 'x'))
t(lambda: setattr(e, 'exceptions', ()))
print(ExceptionGroup.__mro__, BaseExceptionGroup.__mro__)
print(issubclass(ExceptionGroup, Exception), issubclass(BaseExceptionGroup, Exception))
print(e.args, e.exceptions, e.message, str(e), repr(e))
e2 = ExceptionGroup("m", [ValueError(1), TypeError(2)])
print(str(e2), repr(e2))
s = e2.subgroup(ValueError)
print(repr(s), s is e2)
s = e2.subgroup(Exception)
print(repr(s), s is e2)
s = e2.subgroup(lambda x: True)
print(repr(s), s is e2)
print(e2.split(KeyError))
m, r = e2.split(KeyError)
print(m, r is e2)
m, r = e2.split(lambda x: isinstance(x, (ValueError, TypeError)))
print(m is e2, r)
print(e.derive([KeyError()]), type(e.derive([KeyboardInterrupt()])).__name__)
print(BaseExceptionGroup.__new__ is ExceptionGroup.__new__)
print(ExceptionGroup[int])
e3 = ExceptionGroup("m", [ValueError(1), TypeError(2)])
e3.__init__("zz", [])
print(e3.args, e3.message, e3.exceptions)

n = ExceptionGroup("n", [e2, KeyError(3)])
m, r = n.split(ValueError)
print(repr(m), repr(r))
print(n.subgroup(lambda x: isinstance(x, ExceptionGroup) and x.message == 'm'))
print(n.subgroup(KeyError).exceptions[0] is n.exceptions[1])


class D(ExceptionGroup):
    def derive(self, excs):
        print("derive", excs)
        return D(self.message + "!", excs)


d = D("dd", [ValueError(1), TypeError(2)])
d.add_note("nn")
d.__cause__ = KeyError(0)
try:
    raise d
except D as x:
    pass
m, r = d.split(ValueError)
print(repr(m), repr(r), m.__notes__, m.__cause__, m.__traceback__ is d.__traceback__,
      m.__notes__ is d.__notes__, m.__notes__ == d.__notes__)
print(m.__suppress_context__, type(m).__name__)


class Bad(ExceptionGroup):
    def derive(self, excs):
        return 5


try:
    Bad("b", [ValueError(), TypeError()]).split(ValueError)
except TypeError as e:
    print(e)
print(BaseExceptionGroup("x", [ValueError()]).split(ValueError))
print(BaseExceptionGroup.__doc__)


class WithInit(ExceptionGroup):
    def __new__(cls, message, excs, code):
        self = super().__new__(cls, message, excs)
        self.code = code
        return self

    def __init__(self, message, excs, code):
        super().__init__(message, excs)

    def derive(self, excs):
        return WithInit(self.message, excs, self.code)


w = WithInit("w", [ValueError(1), KeyError(2)], 42)
print(repr(w), w.args, w.code)
m, r = w.split(KeyError)
print(repr(m), m.code, repr(r), r.code)

# deep nesting and many members
g = ValueError("leaf")
for i in range(50):
    g = ExceptionGroup(f"l{i}", [g, TypeError(i)])
m, r = g.split(ValueError)
depth = 0
while isinstance(m, BaseExceptionGroup):
    m = m.exceptions[0]
    depth += 1
print(depth, repr(m))
big = ExceptionGroup("big", [ValueError(i) if i % 3 else KeyError(i) for i in range(300)])
m, r = big.split(KeyError)
print(len(m.exceptions), len(r.exceptions), m.exceptions[:2], r.exceptions[-1])
print(BaseExceptionGroup[ValueError], MyEG[int], type(MyEG[int]).__name__,
      repr(ExceptionGroup.__class_getitem__).startswith("<built-in method __class_getitem__ of type object"))
