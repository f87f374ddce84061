def f1():
    try:
        return 1
    finally:
        return 2
print(f1())
def f2():
    x = []
    for i in range(3):
        try:
            try:
                if i == 1:
                    raise ValueError(i)
                x.append(("ok", i))
            finally:
                x.append(("inner-finally", i))
        except ValueError as e:
            x.append(("caught", e.args[0]))
    return x
print(f2())
def f3():
    try:
        raise KeyError("a")
    except KeyError:
        try:
            raise ValueError("b")
        except ValueError as e:
            return repr(e.__context__)
print(f3())
def f4():
    while True:
        try:
            break
        finally:
            print("finally on break")
    return "done"
print(f4())
def f5():
    try:
        pass
    except Exception:
        print("no")
    else:
        print("else runs")
    finally:
        print("finally runs")
f5()
import sys
try:
    raise ValueError("inside")
except ValueError:
    print(sys.exc_info()[0].__name__, sys.exc_info()[1])
print(sys.exc_info())
def f6():
    try:
        1 / 0
    except ZeroDivisionError as e:
        err = e
    try:
        e
    except NameError:
        print("e deleted after except")
    return type(err).__name__
print(f6())
