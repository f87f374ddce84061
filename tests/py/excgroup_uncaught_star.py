# An uncaught group made by except*: re-raised parts and a new exception.
def b():
    try:
        raise ExceptionGroup("eg", [ValueError(1), TypeError(2), KeyError(3)])
    except* ValueError as e:
        raise
    except* TypeError:
        raise RuntimeError("new")
try:
    raise ValueError("naked")
except* ValueError as e:
    print("caught", repr(e))
b()
