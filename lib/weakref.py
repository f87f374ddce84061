"""Weak references and the containers built on them (tmpy's own version).

The C half is _weakref (vm/objects/weakrefobject.c): ref, proxy,
getweakrefcount, getweakrefs. tmpy's collector is tracing, not reference
counting: a weak reference is cleared, and its callback runs, when a
collection finds the referent dead (gc.collect() forces one), and callbacks
run at the interpreter's next safe point, which can be inside a loop over
one of these containers. The containers therefore defer the removals their
callbacks ask for while an iteration is under way.
"""

from _weakref import (ref, proxy, getweakrefcount, getweakrefs, ReferenceType, ProxyType,
                      CallableProxyType, _remove_dead_weakref)
import sys

ProxyTypes = (ProxyType, CallableProxyType)

__all__ = ["ref", "proxy", "getweakrefcount", "getweakrefs", "WeakKeyDictionary", "ReferenceType",
           "ProxyType", "CallableProxyType", "ProxyTypes", "WeakValueDictionary", "WeakSet",
           "WeakMethod", "finalize", "KeyedRef"]


class WeakMethod(ref):
    """A weak reference to a bound method: it holds the instance and the
    function weakly, and calling it gives a fresh bound method (or None)."""

    __slots__ = ("_self_ref", "_func_ref", "_meth_type", "_alive", "__weakref__")

    def __new__(cls, meth, callback=None):
        try:
            obj = meth.__self__
            func = meth.__func__
        except AttributeError:
            raise TypeError("argument should be a bound method, not {}".format(type(meth))) from None

        def _cb(arg):
            self = self_wr()
            if self._alive:
                self._alive = False
                if callback is not None:
                    callback(self)

        self = ref.__new__(cls, obj, _cb)
        self._func_ref = ref(func, _cb)
        self._meth_type = type(meth)
        self._alive = True
        self_wr = ref(self)
        return self

    def __init__(self, meth, callback=None):
        pass

    def __call__(self):
        obj = super().__call__()
        func = self._func_ref()
        if obj is None or func is None:
            return None
        return self._meth_type(func, obj)

    def __eq__(self, other):
        if isinstance(other, WeakMethod):
            if not self._alive or not other._alive:
                return self is other
            return ref.__eq__(self, other) and self._func_ref == other._func_ref
        return NotImplemented

    def __ne__(self, other):
        if isinstance(other, WeakMethod):
            if not self._alive or not other._alive:
                return self is not other
            return not (ref.__eq__(self, other) and self._func_ref == other._func_ref)
        return NotImplemented

    __hash__ = ref.__hash__


class KeyedRef(ref):
    """A weak reference that remembers a key (WeakValueDictionary's entries)."""

    __slots__ = ("key",)

    def __new__(cls, ob, callback, key):
        self = ref.__new__(cls, ob, callback)
        self.key = key
        return self

    def __init__(self, ob, callback, key):
        pass


class _Guarded:
    """Counts the iterations under way; removals asked for meanwhile wait
    in _pending until the last one ends."""

    def _guard_init(self):
        self._iterating = 0
        self._pending = []

    def _enter(self):
        self._iterating += 1

    def _leave(self):
        self._iterating -= 1
        if not self._iterating and self._pending:
            self._flush()


class _WeakMapping(_Guarded):
    """What the two weak dictionaries share, built on items() (which skips
    entries whose weak side is dead), copy() and update()."""

    def __repr__(self):
        return "<%s at %#x>" % (self.__class__.__name__, id(self))

    def keys(self):
        for k, v in self.items():
            yield k

    __iter__ = keys

    def values(self):
        for k, v in self.items():
            yield v

    def clear(self):
        self._pending = []
        self.data.clear()

    def __or__(self, other):
        if hasattr(other, "items"):
            c = self.copy()
            c.update(other)
            return c
        return NotImplemented

    def __ror__(self, other):
        if hasattr(other, "items"):
            c = self.__class__()
            c.update(other)
            c.update(self)
            return c
        return NotImplemented

    def __ior__(self, other):
        self.update(other)
        return self


class WeakValueDictionary(_WeakMapping):
    """A mapping whose values are held weakly: an entry goes once its value
    is collected."""

    def __init__(self, other=(), /, **kw):
        self._guard_init()
        self.data = {}
        self_wr = ref(self)

        def remove(wr):
            self = self_wr()
            if self is not None:
                if self._iterating:
                    self._pending.append(wr.key)
                else:
                    _remove_dead_weakref(self.data, wr.key)

        self._remove = remove
        self.update(other, **kw)

    def _flush(self):
        pending, self._pending = self._pending, []
        for key in pending:
            _remove_dead_weakref(self.data, key)

    def __getitem__(self, key):
        o = self.data[key]()
        if o is None:
            raise KeyError(key)
        return o

    def __setitem__(self, key, value):
        self.data[key] = KeyedRef(value, self._remove, key)

    def __delitem__(self, key):
        if self._pending:
            self._flush()
        del self.data[key]

    def __contains__(self, key):
        try:
            o = self.data[key]()
        except KeyError:
            return False
        return o is not None

    def __len__(self):
        if self._pending:
            self._flush()
        return sum(1 for wr in list(self.data.values()) if wr() is not None)

    def get(self, key, default=None):
        try:
            wr = self.data[key]
        except KeyError:
            return default
        o = wr()
        return default if o is None else o

    def items(self):
        self._enter()
        try:
            for k, wr in list(self.data.items()):
                v = wr()
                if v is not None:
                    yield k, v
        finally:
            self._leave()

    def itervaluerefs(self):
        self._enter()
        try:
            yield from list(self.data.values())
        finally:
            self._leave()

    def valuerefs(self):
        if self._pending:
            self._flush()
        return list(self.data.values())

    def pop(self, key, *args):
        if self._pending:
            self._flush()
        try:
            o = self.data.pop(key)()
        except KeyError:
            o = None
        if o is None:
            if args:
                return args[0]
            raise KeyError(key)
        return o

    def popitem(self):
        if self._pending:
            self._flush()
        while True:
            key, wr = self.data.popitem()
            o = wr()
            if o is not None:
                return key, o

    def setdefault(self, key, default=None):
        try:
            o = self.data[key]()
        except KeyError:
            o = None
        if o is None:
            if self._pending:
                self._flush()
            self.data[key] = KeyedRef(default, self._remove, key)
            return default
        return o

    def update(self, other=(), /, **kw):
        if self._pending:
            self._flush()
        if hasattr(other, "items"):
            other = other.items()
        for key, o in other:
            self[key] = o
        for key, o in kw.items():
            self[key] = o

    def copy(self):
        new = WeakValueDictionary()
        for key, o in self.items():
            new[key] = o
        return new

    __copy__ = copy

    def __eq__(self, other):
        if isinstance(other, WeakValueDictionary):
            return dict(self.items()) == dict(other.items())
        if isinstance(other, dict):
            return dict(self.items()) == other
        return NotImplemented


class WeakKeyDictionary(_WeakMapping):
    """A mapping whose keys are held weakly: an entry goes once its key is
    collected. Keys must be hashable and weakly referenceable."""

    def __init__(self, dict=None):
        self._guard_init()
        self.data = {}
        self_wr = ref(self)

        def remove(k):
            self = self_wr()
            if self is not None:
                if self._iterating:
                    self._pending.append(k)
                else:
                    try:
                        del self.data[k]
                    except KeyError:
                        pass

        self._remove = remove
        if dict is not None:
            self.update(dict)

    def _flush(self):
        pending, self._pending = self._pending, []
        for k in pending:
            self.data.pop(k, None)

    def __getitem__(self, key):
        return self.data[ref(key)]

    def __setitem__(self, key, value):
        self.data[ref(key, self._remove)] = value

    def __delitem__(self, key):
        del self.data[ref(key)]

    def __contains__(self, key):
        try:
            wr = ref(key)
        except TypeError:
            return False
        return wr in self.data

    def __len__(self):
        if self._pending:
            self._flush()
        return sum(1 for wr in list(self.data) if wr() is not None)

    def get(self, key, default=None):
        return self.data.get(ref(key), default)

    def items(self):
        self._enter()
        try:
            for wr, value in list(self.data.items()):
                key = wr()
                if key is not None:
                    yield key, value
        finally:
            self._leave()

    def keyrefs(self):
        return list(self.data)

    def pop(self, key, *args):
        return self.data.pop(ref(key), *args)

    def popitem(self):
        while True:
            wr, value = self.data.popitem()
            key = wr()
            if key is not None:
                return key, value

    def setdefault(self, key, default=None):
        return self.data.setdefault(ref(key, self._remove), default)

    def update(self, dict=None, /, **kw):
        if dict is not None:
            if hasattr(dict, "items"):
                dict = dict.items()
            for key, value in dict:
                self[key] = value
        if kw:
            self.update(kw)

    def copy(self):
        new = WeakKeyDictionary()
        for key, value in self.items():
            new[key] = value
        return new

    __copy__ = copy

    def __eq__(self, other):
        if isinstance(other, WeakKeyDictionary):
            return dict(self.items()) == dict(other.items())
        return NotImplemented


class WeakSet(_Guarded):
    """A set whose elements are held weakly."""

    def __init__(self, data=None):
        self._guard_init()
        self.data = set()
        self_wr = ref(self)

        def remove(item):
            self = self_wr()
            if self is not None:
                if self._iterating:
                    self._pending.append(item)
                else:
                    self.data.discard(item)

        self._remove = remove
        if data is not None:
            self.update(data)

    def _flush(self):
        pending, self._pending = self._pending, []
        for item in pending:
            self.data.discard(item)

    def __iter__(self):
        self._enter()
        try:
            for wr in list(self.data):
                item = wr()
                if item is not None:
                    yield item
        finally:
            self._leave()

    def __len__(self):
        if self._pending:
            self._flush()
        return sum(1 for wr in list(self.data) if wr() is not None)

    def __contains__(self, item):
        try:
            wr = ref(item)
        except TypeError:
            return False
        return wr in self.data

    def __repr__(self):
        return "<%s at %#x>" % (self.__class__.__name__, id(self))

    def add(self, item):
        if self._pending:
            self._flush()
        self.data.add(ref(item, self._remove))

    def clear(self):
        self._pending = []
        self.data.clear()

    def copy(self):
        return self.__class__(self)

    def pop(self):
        if self._pending:
            self._flush()
        while True:
            try:
                wr = self.data.pop()
            except KeyError:
                raise KeyError("pop from empty WeakSet") from None
            item = wr()
            if item is not None:
                return item

    def remove(self, item):
        if self._pending:
            self._flush()
        self.data.remove(ref(item))

    def discard(self, item):
        if self._pending:
            self._flush()
        self.data.discard(ref(item))

    def update(self, other):
        for element in other:
            self.add(element)

    def __ior__(self, other):
        self.update(other)
        return self

    def _items(self):
        return set(self)

    def difference(self, other):
        return self.__class__(x for x in self if x not in other)

    __sub__ = difference

    def intersection(self, other):
        return self.__class__(x for x in other if x in self)

    __and__ = intersection

    def union(self, other):
        new = self.copy()
        new.update(other)
        return new

    __or__ = union

    def symmetric_difference(self, other):
        other = list(other)
        return self.__class__([x for x in self if x not in other] + [x for x in other if x not in self])

    __xor__ = symmetric_difference

    def difference_update(self, other):
        for x in list(other):
            self.discard(x)

    __isub__ = difference_update

    def issubset(self, other):
        return all(x in other for x in self)

    __le__ = issubset

    def issuperset(self, other):
        return all(x in self for x in other)

    __ge__ = issuperset

    def __lt__(self, other):
        return self.issubset(other) and len(self) < len(other)

    def __gt__(self, other):
        return self.issuperset(other) and len(self) > len(other)

    def __eq__(self, other):
        if not isinstance(other, self.__class__):
            return NotImplemented
        return self._items() == other._items()

    def isdisjoint(self, other):
        return not any(x in self for x in other)

    __hash__ = None


class finalize:
    """finalize(obj, func, /, *args, **kwargs): call func(*args, **kwargs)
    once, when obj is collected, when the finalize object is called, or at
    exit (if atexit is true, the default)."""

    __slots__ = ()
    _registry = {}
    _shutdown = False
    _index = [0]
    _dirty = False
    _registered_with_atexit = False

    class _Info:
        __slots__ = ("weakref", "func", "args", "kwargs", "atexit", "index")

    def __init__(self, obj, func, /, *args, **kwargs):
        if not finalize._registered_with_atexit:
            import atexit
            atexit.register(finalize._exitfunc)
            finalize._registered_with_atexit = True
        info = self._Info()
        info.weakref = ref(obj, self)
        info.func = func
        info.args = args
        info.kwargs = kwargs or None
        info.atexit = True
        finalize._index[0] += 1
        info.index = finalize._index[0]
        self._registry[self] = info
        finalize._dirty = True

    def __call__(self, _=None):
        info = self._registry.pop(self, None)
        if info and not self._shutdown:
            return info.func(*info.args, **(info.kwargs or {}))

    def detach(self):
        info = self._registry.get(self)
        obj = info and info.weakref()
        if obj is not None and self._registry.pop(self, None):
            return (obj, info.func, info.args, info.kwargs or {})

    def peek(self):
        info = self._registry.get(self)
        obj = info and info.weakref()
        if obj is not None:
            return (obj, info.func, info.args, info.kwargs or {})

    @property
    def alive(self):
        return self in self._registry

    @property
    def atexit(self):
        info = self._registry.get(self)
        return bool(info) and info.atexit

    @atexit.setter
    def atexit(self, value):
        info = self._registry.get(self)
        if info:
            info.atexit = bool(value)

    def __repr__(self):
        info = self._registry.get(self)
        obj = info and info.weakref()
        if obj is None:
            return "<%s object at %#x; dead>" % (type(self).__name__, id(self))
        return "<%s object at %#x; for %r at %#x>" % (type(self).__name__, id(self),
                                                      type(obj).__name__, id(obj))

    @classmethod
    def _select_for_exit(cls):
        entries = [(f, i) for (f, i) in cls._registry.items() if i.atexit]
        entries.sort(key=lambda item: item[1].index)
        return [f for (f, i) in entries]

    @classmethod
    def _exitfunc(cls):
        try:
            if cls._registry:
                pending = None
                while True:
                    if pending is None or finalize._dirty:
                        pending = cls._select_for_exit()
                        finalize._dirty = False
                    if not pending:
                        break
                    f = pending.pop()
                    try:
                        f()
                    except Exception:
                        sys.excepthook(*sys.exc_info())
                    assert f not in cls._registry
        finally:
            finalize._shutdown = True
