# Position markers inside the boxes of an uncaught exception group (the
# margin goes before each marker line too).
def f(v):
    return v / 0


def g(d):
    return d["k"] + d["j"]


excs = []
for fn, arg in ((f, 1), (g, {"k": 1})):
    try:
        fn(arg)
    except Exception as e:
        excs.append(e)
try:
    raise ExceptionGroup("inner", [excs[1]])
except ExceptionGroup as e:
    excs.append(e)
x = [ExceptionGroup("eg", excs)]
raise x[0]
