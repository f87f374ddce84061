import sys
def f():
    raise ValueError("tb test")
try:
    f()
except ValueError as e:
    tb = e.__traceback__
    print(type(tb).__name__, tb is not None)
    n = 0
    while tb:
        n += 1
        tb = tb.tb_next
    print("frames", n)
try:
    raise KeyError("x").with_traceback(None)
except KeyError as e:
    print("with_traceback ok", e)
