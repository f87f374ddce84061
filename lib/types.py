"""Names for the interpreter's built-in types, and types.coroutine.

Each name is the type of a real object made here, so it is whatever tmpy's
object model has (built-in methods of C types are all
builtin_function_or_method in tmpy). CPython's own types.py is not used:
it takes MappingProxyType from type(type.__dict__), which is a plain dict
in tmpy, so here MappingProxyType is a class of its own (a live read-only
view of a mapping).
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
MethodDescriptorType = type(str.join)
ClassMethodDescriptorType = type(dict.__dict__["fromkeys"])
UnionType = type(int | str)


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


class MappingProxyType:
    """mappingproxy(mapping): a read-only view of a mapping; it shows the
    mapping's changes and cannot change it."""
    __slots__ = ("__mapping",)

    def __new__(cls, mapping):
        if isinstance(mapping, (list, tuple)) or not hasattr(type(mapping), "__getitem__") \
                or not hasattr(type(mapping), "keys"):
            raise TypeError(f"mappingproxy() argument must be a mapping, not {type(mapping).__name__}")
        self = object.__new__(cls)
        object.__setattr__(self, "_MappingProxyType__mapping", mapping)
        return self

    def __setattr__(self, name, value):
        raise AttributeError(f"'mappingproxy' object attribute '{name}' is read-only")

    def __getitem__(self, key):
        return self.__mapping[key]

    def __contains__(self, key):
        return key in self.__mapping

    def __iter__(self):
        return iter(self.__mapping)

    def __len__(self):
        return len(self.__mapping)

    def __reversed__(self):
        return reversed(self.__mapping)

    def get(self, key, default=None):
        return self.__mapping.get(key, default)

    def keys(self):
        return self.__mapping.keys()

    def values(self):
        return self.__mapping.values()

    def items(self):
        return self.__mapping.items()

    def copy(self):
        return self.__mapping.copy()

    def __eq__(self, other):
        return self.__mapping == other

    def __ne__(self, other):
        return self.__mapping != other

    __hash__ = None

    def __or__(self, other):
        if isinstance(other, MappingProxyType):
            other = other.copy()
        return self.__mapping | other

    def __ror__(self, other):
        return other | self.__mapping

    def __ior__(self, other):
        raise TypeError("'|=' is not supported by mappingproxy; use '|' instead")

    def __str__(self):
        return str(self.__mapping)

    def __repr__(self):
        return f"mappingproxy({self.__mapping!r})"

    __class_getitem__ = classmethod(GenericAlias)


MappingProxyType.__name__ = MappingProxyType.__qualname__ = "mappingproxy"


class DynamicClassAttribute:
    """An attribute read through instances (like property) that is missing
    on the class, so a metaclass __getattr__ answers there (enum uses it for
    members named like properties)."""

    def __init__(self, fget=None, fset=None, fdel=None, doc=None):
        self.fget = fget
        self.fset = fset
        self.fdel = fdel
        self.__doc__ = doc if doc is not None else getattr(fget, "__doc__", None)
        self.overwrite_doc = doc is None
        self.__isabstractmethod__ = bool(getattr(fget, "__isabstractmethod__", False))

    def __get__(self, instance, ownerclass=None):
        if instance is None:
            if self.__isabstractmethod__:
                return self
            raise AttributeError()
        if self.fget is None:
            raise AttributeError("unreadable attribute")
        return self.fget(instance)

    def __set__(self, instance, value):
        if self.fset is None:
            raise AttributeError("can't set attribute")
        self.fset(instance, value)

    def __delete__(self, instance):
        if self.fdel is None:
            raise AttributeError("can't delete attribute")
        self.fdel(instance)

    def _with(self, fget, fset, fdel):
        doc = fget.__doc__ if self.overwrite_doc else self.__doc__
        made = type(self)(fget, fset, fdel, doc)
        made.overwrite_doc = self.overwrite_doc
        return made

    def getter(self, fget):
        return self._with(fget, self.fset, self.fdel)

    def setter(self, fset):
        return self._with(self.fget, fset, self.fdel)

    def deleter(self, fdel):
        return self._with(self.fget, self.fset, fdel)


def resolve_bases(bases):
    """bases with every non-class entry replaced by what its
    __mro_entries__(bases) returns (PEP 560)."""
    resolved = []
    changed = False
    for base in bases:
        if isinstance(base, type) or not hasattr(base, "__mro_entries__"):
            resolved.append(base)
            continue
        entries = base.__mro_entries__(bases)
        if not isinstance(entries, tuple):
            raise TypeError("__mro_entries__ must return a tuple")
        resolved.extend(entries)
        changed = True
    return tuple(resolved) if changed else bases


def _calculate_meta(meta, bases):
    winner = meta
    for base in bases:
        base_meta = type(base)
        if issubclass(winner, base_meta):
            continue
        if issubclass(base_meta, winner):
            winner = base_meta
            continue
        raise TypeError("metaclass conflict: the metaclass of a derived class must be a "
                        "(non-strict) subclass of the metaclasses of all its bases")
    return winner


def prepare_class(name, bases=(), kwds=None):
    """(metaclass, namespace, kwds) as a class statement would compute them;
    kwds is a copy without 'metaclass'."""
    kwds = {} if kwds is None else dict(kwds)
    if "metaclass" in kwds:
        meta = kwds.pop("metaclass")
    else:
        meta = type(bases[0]) if bases else type
    if isinstance(meta, type):
        meta = _calculate_meta(meta, bases)
    if hasattr(meta, "__prepare__"):
        ns = meta.__prepare__(name, bases, **kwds)
    else:
        ns = {}
    return meta, ns, kwds


def new_class(name, bases=(), kwds=None, exec_body=None):
    """A class made as a class statement would make it: exec_body(ns) fills
    the namespace."""
    resolved = resolve_bases(bases)
    meta, ns, kwds = prepare_class(name, resolved, kwds)
    if exec_body is not None:
        exec_body(ns)
    if resolved is not bases:
        ns["__orig_bases__"] = bases
    return meta(name, resolved, ns, **kwds)
