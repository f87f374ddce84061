for exc_type in [ZeroDivisionError, OverflowError, KeyError, IndexError, FileNotFoundError, PermissionError, UnboundLocalError, RecursionError, NotImplementedError, StopIteration, ModuleNotFoundError, IndentationError, TabError, UnicodeDecodeError, TimeoutError, BrokenPipeError]:
    print(exc_type.__name__, [b.__name__ for b in exc_type.__mro__[1:]])
print(issubclass(Exception, BaseException), issubclass(KeyboardInterrupt, Exception), issubclass(SystemExit, Exception), issubclass(GeneratorExit, Exception))
try:
    raise OSError(2, "No such file")
except OSError as e:
    print(e.errno, e.strerror, e, type(e).__name__)
try:
    open("/nonexistent_dir_tmpy/x")
except OSError as e:
    print(type(e).__name__, e.errno, e.filename)
