try:
    try:
        int("x")
    except ValueError:
        raise TypeError("clean") from None
except TypeError as e:
    print(e, e.__cause__, e.__suppress_context__, type(e.__context__).__name__)
class Custom(Exception):
    pass
class Sub(Custom):
    pass
for exc in [Custom("c"), Sub("s"), ValueError("v")]:
    try:
        raise exc
    except Sub:
        print("sub")
    except Custom as e:
        print("custom", e)
    except Exception as e:
        print("other", e)
try:
    raise Sub
except Custom as e:
    print(type(e).__name__, e.args)
e = Exception("a", "b")
print(e.args, str(e), repr(e), str(Exception()), repr(Exception()), repr(KeyError("k")), str(KeyError("k")))
print(repr(ValueError("x")), str(SystemExit(3)), SystemExit(3).code, repr(StopIteration(1)))
