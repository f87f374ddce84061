"""Names for the interpreter's built-in types, and types.coroutine.

Each name is the type of a real object made here, so it is whatever tmpy's
object model has (built-in methods of C types are all
builtin_function_or_method in tmpy). Not here yet: MappingProxyType,
UnionType, new_class / prepare_class / resolve_bases,
DynamicClassAttribute (they need parts of the object model tmpy lacks).
"""
import sys


def _function():
    pass


FunctionType = type(_function)
LambdaType = type(lambda: None)
CodeType = type(_function.__code__)
ModuleType = type(sys)
SimpleNamespace = type(sys.implementation)
GenericAlias = type(list[int])
NoneType = type(None)
EllipsisType = type(Ellipsis)
NotImplementedType = type(NotImplemented)
BuiltinFunctionType = type(len)
BuiltinMethodType = type([].append)
WrapperDescriptorType = type(object.__init__)
MethodWrapperType = type(object().__init__)
GetSetDescriptorType = type(FunctionType.__dict__["__code__"])
MemberDescriptorType = type(FunctionType.__dict__["__globals__"])


def _cell():
    x = None

    def inner():
        return x
    return inner.__closure__[0]


CellType = type(_cell())


def _generator():
    yield 1


GeneratorType = type(_generator())


async def _coroutine():
    pass


_c = _coroutine()
CoroutineType = type(_c)
_c.close()   # never awaited: closed at once
del _c


async def _async_generator():
    yield 1


AsyncGeneratorType = type(_async_generator())


class _Method:
    def method(self):
        pass


MethodType = type(_Method().method)


def _traceback_and_frame():
    try:
        raise TypeError
    except TypeError as exc:
        tb = exc.__traceback__
        return type(tb), type(tb.tb_frame)


TracebackType, FrameType = _traceback_and_frame()

del _function, _cell, _generator, _coroutine, _async_generator, _Method, _traceback_and_frame

_CO_GENERATOR = 0x20
_CO_COROUTINE = 0x80
_CO_ITERABLE_COROUTINE = 0x100


class _AwaitableGenerator:
    """Makes a generator-like object (send, throw, close, __next__) that is
    not a coroutine usable with await: what types.coroutine returns for a
    function that is not a plain generator function."""

    def __init__(self, gen):
        self.__gen = gen
        self.__name__ = getattr(gen, "__name__", None)
        self.__qualname__ = getattr(gen, "__qualname__", None)

    def send(self, value):
        return self.__gen.send(value)

    def throw(self, *args):
        return self.__gen.throw(*args)

    def close(self):
        return self.__gen.close()

    @property
    def gi_code(self):
        return self.__gen.gi_code

    @property
    def gi_frame(self):
        return self.__gen.gi_frame

    @property
    def gi_running(self):
        return self.__gen.gi_running

    @property
    def gi_yieldfrom(self):
        return self.__gen.gi_yieldfrom

    cr_code = gi_code
    cr_frame = gi_frame
    cr_running = gi_running
    cr_await = gi_yieldfrom

    def __next__(self):
        return next(self.__gen)

    def __iter__(self):
        return self

    __await__ = __iter__


def _is_generator_like(obj):
    t = type(obj)
    return all(hasattr(t, name) for name in ("send", "throw", "close", "__next__", "__iter__")) and \
        not hasattr(t, "__await__")


def coroutine(func):
    """Make a generator function usable as a coroutine (await works on the
    generators it makes), as CPython's types.coroutine."""
    if not callable(func):
        raise TypeError("types.coroutine() expects a callable")

    if type(func) is FunctionType:
        flags = func.__code__.co_flags
        if flags & (_CO_ITERABLE_COROUTINE | _CO_COROUTINE):
            return func
        if flags & _CO_GENERATOR:
            # The same function, its code marked as an iterable coroutine.
            func.__code__ = func.__code__.replace(co_flags=flags | _CO_ITERABLE_COROUTINE)
            return func

    def wrapped(*args, **kwargs):
        coro = func(*args, **kwargs)
        if type(coro) is CoroutineType:
            return coro
        if type(coro) is GeneratorType and coro.gi_code.co_flags & _CO_ITERABLE_COROUTINE:
            return coro
        if _is_generator_like(coro):
            return _AwaitableGenerator(coro)
        return coro

    for attr in ("__module__", "__name__", "__qualname__", "__doc__"):
        try:
            setattr(wrapped, attr, getattr(func, attr))
        except AttributeError:
            pass
    wrapped.__wrapped__ = func
    return wrapped
