# An uncaught ExceptionGroup: members with tracebacks, causes, contexts, notes and a
# nested group, printed in CPython's box format (tests/test_excgroup_traceback.py
# compares the whole of stderr).
def f():
    raise ValueError(1)
def g():
    try:
        f()
    except ValueError as e:
        raise TypeError("inner") from e
excs = []
for fn in (f, g):
    try:
        fn()
    except Exception as e:
        excs.append(e)
try:
    raise KeyError('k')
except KeyError:
    inner = ExceptionGroup("inner", [OSError(2, 'x'), excs[0]])
    try:
        raise inner
    except ExceptionGroup as ie:
        excs.append(ie)
e = ExceptionGroup("outer", excs + [RuntimeError("r")])
e.add_note("a note\nline2")
raise e
