# except* (PEP 654): matching leaves, naked exceptions wrapped, unhandled parts
# re-raised in the original shape, raises in clauses combined into a new group.
import sys
def show(e, ind=0):
    if isinstance(e, BaseExceptionGroup):
        print(" "*ind + f"{type(e).__name__}({e.message!r})", "ctx=", repr(e.__context__)[:40], "cause=", repr(e.__cause__))
        for x in e.exceptions: show(x, ind+2)
    else:
        print(" "*ind + repr(e), "ctx=", repr(e.__context__)[:40])
def run(f):
    try:
        f()
        print("no exception")
    except BaseException as e:
        show(e)
def a():
    try:
        raise ExceptionGroup("eg", [ValueError(1), TypeError(2), ValueError(3)])
    except* ValueError as e:
        print("caught", repr(e), repr(sys.exc_info()[1]))
    except* TypeError as e:
        print("caught T", repr(e))
run(a)
def b():
    try:
        raise ExceptionGroup("eg", [ValueError(1), TypeError(2), KeyError(3)])
    except* ValueError as e:
        raise
    except* TypeError:
        raise RuntimeError("new")
run(b)
def c():
    try:
        raise ValueError("naked")
    except* ValueError as e:
        print("c caught", repr(e), e.exceptions[0].__traceback__ is e.__traceback__)
run(c)
def d():
    try:
        raise ValueError("naked")
    except* TypeError as e:
        print("not here")
run(d)
def e():
    try:
        raise ValueError("naked")
    except* ValueError as e:
        raise KeyError("k")
run(e)
def f():
    try:
        raise ExceptionGroup("eg", [ValueError(1)])
    except* ExceptionGroup:
        pass
run(f)
def g():
    try:
        raise ExceptionGroup("eg", [ValueError(1)])
    except* (ValueError, BaseExceptionGroup):
        pass
run(g)
def h():
    try:
        raise ExceptionGroup("eg", [ValueError(1)])
    except* int:
        pass
run(h)
def i():
    try:
        raise ExceptionGroup("eg", [ValueError(1), ExceptionGroup("in", [TypeError(2), ValueError(5)])])
    except* ValueError as e:
        print("i", repr(e))
        raise e
    except* TypeError as e:
        print("i2", repr(e))
run(i)
def j():
    try:
        try:
            raise ExceptionGroup("eg", [ValueError(1), TypeError(2)])
        except* ValueError:
            1/0
        except* TypeError:
            raise
    except* ZeroDivisionError as z:
        print("j z", repr(z))
    except* TypeError as t:
        print("j t", repr(t))
run(j)
def k():
    try:
        pass
    except* ValueError:
        pass
    else:
        print("else")
    finally:
        print("finally")
run(k)
def l():
    for x in range(3):
        try:
            raise ExceptionGroup("eg", [ValueError(x)])
        except* ValueError as e:
            for y in range(3):
                if y == 1: break
                print(x, y)
    print(sys.exc_info())
run(l)
def m():
    try:
        raise KeyboardInterrupt
    except* KeyboardInterrupt as e:
        print(repr(e))
        raise SystemExit(3)
run(m)
def n():
    # the name is deleted after the clause; exc_info restored after the try
    try:
        raise ExceptionGroup("eg", [ValueError(1)])
    except* ValueError as err:
        pass
    try:
        err
    except NameError as x:
        print("n", x)
    print(sys.exc_info())
run(n)
def o():
    # a clause inside a generator, resumed between clauses
    def gen():
        try:
            raise ExceptionGroup("eg", [ValueError(1), TypeError(2)])
        except* ValueError as e:
            yield ("v", repr(e))
        except* TypeError as e:
            yield ("t", repr(e), repr(sys.exc_info()[1]))
        yield "done"
    print(list(gen()))
run(o)
def p():
    # nested try/except* with finally inside clauses; a clause defines a function that returns
    try:
        raise ExceptionGroup("outer", [OSError(1, "x"), KeyError("k"), ValueError(2)])
    except* OSError as e:
        def inner():
            return e.exceptions[0].errno
        print("p errno", inner())
        try:
            raise KeyError("from clause")
        except KeyError:
            print("p handled inside clause", repr(sys.exc_info()[1]))
        finally:
            print("p finally in clause")
    except* LookupError as e:
        print("p lookup", repr(e))
        raise
run(p)
def q():
    # an exception raised while evaluating the clause's type
    try:
        raise ExceptionGroup("eg", [ValueError(1)])
    except* undefined_name:
        pass
run(q)
def r():
    # a group subclass: split via its derive
    class G(ExceptionGroup):
        def derive(self, excs):
            return G(self.message + "*", excs)
    try:
        raise G("g", [ValueError(1), TypeError(2)])
    except* ValueError as e:
        print("r", type(e).__name__, repr(e))
run(r)
def s():
    # a clause that raises a group and another that raises a naked exception
    try:
        raise ExceptionGroup("eg", [ValueError(1), TypeError(2), OSError(3)])
    except* ValueError:
        raise ExceptionGroup("newg", [KeyError("a")])
    except* TypeError as t:
        raise t.exceptions[0]
run(s)
def u():
    # except* with a tuple, then BaseException members
    try:
        raise BaseExceptionGroup("b", [KeyboardInterrupt(), ValueError(1), SystemExit(2)])
    except* (KeyboardInterrupt, ValueError) as e:
        print("u", repr(e))
run(u)
def w():
    # a loop of except* with continue/break inside an inner loop only
    out = []
    for i in range(4):
        try:
            if i % 2:
                raise ExceptionGroup("odd", [ValueError(i)])
            out.append(i)
        except* ValueError as e:
            for j in range(10):
                if j > i:
                    break
                out.append((i, j))
    print(out)
run(w)
