def risky():
    try:
        raise ValueError("first")
    except ValueError:
        raise TypeError("second")
try:
    risky()
except TypeError as e:
    print(e, "| context:", repr(e.__context__), "| cause:", e.__cause__)
def cleanup():
    try:
        return 1 / 0
    finally:
        print("finally runs before propagation")
try:
    cleanup()
except ZeroDivisionError as e:
    print("caught", e)
def swallow():
    try:
        raise KeyError("x")
    finally:
        return "finally return swallows"
print(swallow())
