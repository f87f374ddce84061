def risky(n):
    if n == 0:
        raise ValueError("zero")
    if n == 1:
        raise KeyError("k")
    if n == 2:
        return 1 / 0
    return n
for i in range(4):
    try:
        r = risky(i)
    except ValueError as e:
        print("value", e)
    except (KeyError, ZeroDivisionError) as e:
        print("other", type(e).__name__, e)
    else:
        print("ok", r)
    finally:
        print("finally", i)
class MyError(Exception):
    def __init__(self, code):
        super().__init__(f"code {code}")
        self.code = code
try:
    raise MyError(7)
except Exception as e:
    print(e, e.code, e.args, repr(e), isinstance(e, MyError))
try:
    try:
        raise ValueError("inner")
    except ValueError as e:
        raise RuntimeError("outer") from e
except RuntimeError as e:
    print(e, repr(e.__cause__), e.__suppress_context__)
try:
    try:
        1 / 0
    except ZeroDivisionError:
        raise TypeError("during")
except TypeError as e:
    print(e, type(e.__context__).__name__)
def f():
    try:
        return "try"
    finally:
        print("cleanup")
print(f())
def g():
    for i in range(3):
        try:
            if i == 1:
                continue
            if i == 2:
                break
        finally:
            print("fin", i)
    return i
print(g())
try:
    raise StopIteration(5)
except StopIteration as e:
    print(e.value)
try:
    assert 1 == 2, "math broke"
except AssertionError as e:
    print("assert", e)
try:
    {}["x"]
except LookupError as e:
    print("lookup", repr(e))
e = None
try:
    raise ValueError
except ValueError as err:
    e = err
print(type(e).__name__, e.args)
try:
    int("abc")
except ValueError as e:
    print(e)
def nested():
    try:
        raise ValueError("a")
    except ValueError:
        try:
            raise KeyError("b")
        except KeyError:
            pass
        raise
try:
    nested()
except ValueError as e:
    print("reraised", e)
print(issubclass(ZeroDivisionError, ArithmeticError), issubclass(KeyError, LookupError), BaseException.__subclasses__ is not None)
try:
    raise Exception("a", 1)
except Exception as e:
    print(e, str(e), e.args)
