"""functools (pure Python): reduce, partial, wraps, lru_cache, cache,
cmp_to_key, total_ordering, cached_property, singledispatch (basic)."""

__all__ = ['update_wrapper', 'wraps', 'WRAPPER_ASSIGNMENTS', 'WRAPPER_UPDATES', 'total_ordering',
           'cache', 'cmp_to_key', 'lru_cache', 'reduce', 'partial', 'cached_property',
           'singledispatch']

WRAPPER_ASSIGNMENTS = ('__module__', '__name__', '__qualname__', '__doc__')
WRAPPER_UPDATES = ('__dict__',)

_initial_missing = object()
_absent = object()


def reduce(function, iterable, initial=_initial_missing):
    items = iter(iterable)
    acc = initial
    if acc is _initial_missing:
        for acc in items:       # the first item seeds the fold
            break
        else:
            raise TypeError("reduce() of empty iterable with no initial value")
    for item in items:
        acc = function(acc, item)
    return acc


def update_wrapper(wrapper, wrapped, assigned=WRAPPER_ASSIGNMENTS, updated=WRAPPER_UPDATES):
    # copy what the wrapped object has (a missing attribute is skipped),
    # then merge the mapping attributes
    for name in assigned:
        value = getattr(wrapped, name, _absent)
        if value is not _absent:
            setattr(wrapper, name, value)
    for name in updated:
        target = getattr(wrapper, name)
        target.update(getattr(wrapped, name, {}))
    wrapper.__wrapped__ = wrapped
    return wrapper


def wraps(wrapped, assigned=WRAPPER_ASSIGNMENTS, updated=WRAPPER_UPDATES):
    return partial(update_wrapper, wrapped=wrapped, assigned=assigned, updated=updated)


class partial:
    __slots__ = ('func', 'args', 'keywords', '__dict__')

    def __new__(cls, func, /, *args, **keywords):
        if not callable(func):
            raise TypeError("the first argument must be callable")
        while isinstance(func, partial):
            # partial(partial(f, a, x=1), b) is flattened to partial(f, a, b, x=1)
            outer_kw = keywords
            keywords = dict(func.keywords)
            keywords.update(outer_kw)
            args = func.args + args
            func = func.func
        obj = object.__new__(cls)
        obj.func = func
        obj.args = args
        obj.keywords = keywords
        return obj

    def __call__(self, /, *args, **keywords):
        merged = dict(self.keywords)
        merged.update(keywords)
        return self.func(*self.args, *args, **merged)

    def __repr__(self):
        shown = [repr(self.func)]
        shown.extend(map(repr, self.args))
        shown.extend('%s=%r' % pair for pair in self.keywords.items())
        kind = type(self)
        prefix = 'functools.' if kind.__module__ == 'functools' else ''
        return '%s%s(%s)' % (prefix, kind.__qualname__, ', '.join(shown))

    def __get__(self, obj, objtype=None):
        return self


def _key_method(mycmp, test, name):
    def compare(self, other):
        return test(mycmp(self.obj, other.obj))
    compare.__name__ = name
    return compare


def cmp_to_key(mycmp):
    """A key class for sorted() & co. whose instances order by mycmp(a, b)
    (negative: a first, zero: equal, positive: b first)."""
    class K:
        __slots__ = ('obj',)
        __hash__ = None

        def __init__(self, obj):
            self.obj = obj

    for name, test in (('__lt__', lambda c: c < 0), ('__gt__', lambda c: c > 0), ('__eq__', lambda c: c == 0),
                       ('__le__', lambda c: c <= 0), ('__ge__', lambda c: c >= 0)):
        setattr(K, name, _key_method(mycmp, test, name))
    return K


# total_ordering: each missing comparison is made from the defined root one.
# flip: negate the root's answer; tie: then also require inequality ('ne')
# or accept equality ('eq').
_DERIVED = {
    '__lt__': {'__gt__': (True, 'ne'), '__le__': (False, 'eq'), '__ge__': (True, None)},
    '__le__': {'__ge__': (True, 'eq'), '__lt__': (False, 'ne'), '__gt__': (True, None)},
    '__gt__': {'__lt__': (True, 'ne'), '__ge__': (False, 'eq'), '__le__': (True, None)},
    '__ge__': {'__le__': (True, 'eq'), '__gt__': (False, 'ne'), '__lt__': (True, None)},
}


def _derive(root, flip, tie, name):
    def op(self, other):
        got = getattr(type(self), root)(self, other)
        if got is NotImplemented:
            return got
        if flip:
            got = not got
        if tie == 'ne':
            return got and self != other
        if tie == 'eq':
            return got or self == other
        return got
    op.__name__ = name
    return op


def total_ordering(cls):
    defined = [name for name in ('__lt__', '__le__', '__gt__', '__ge__')
               if getattr(cls, name, None) is not getattr(object, name, None)]
    if not defined:
        raise ValueError('must define at least one ordering operation: < > <= >=')
    root = max(defined)
    for name, (flip, tie) in _DERIVED[root].items():
        if name not in defined:
            setattr(cls, name, _derive(root, flip, tie, name))
    return cls


class _CacheInfo(tuple):
    def __new__(cls, hits, misses, maxsize, currsize):
        return tuple.__new__(cls, (hits, misses, maxsize, currsize))

    hits = property(lambda self: self[0])
    misses = property(lambda self: self[1])
    maxsize = property(lambda self: self[2])
    currsize = property(lambda self: self[3])

    def __repr__(self):
        return 'CacheInfo(hits=%r, misses=%r, maxsize=%r, currsize=%r)' % tuple(self)


_kwd_mark = object()


def _make_key(args, kwds, typed):
    # one plain int or str argument is its own key
    if not kwds and not typed and len(args) == 1 and type(args[0]) in (int, str):
        return args[0]
    parts = list(args)
    if kwds:
        parts.append(_kwd_mark)
        for name, value in kwds.items():
            parts.append(name)
            parts.append(value)
    if typed:
        parts.extend(type(a) for a in args)
        parts.extend(type(v) for v in kwds.values())
    return tuple(parts)


def lru_cache(maxsize=128, typed=False):
    if callable(maxsize) and isinstance(typed, bool):
        # used bare: @lru_cache
        return update_wrapper(_lru_wrapper(maxsize, 128, typed), maxsize)
    if isinstance(maxsize, int):
        maxsize = max(maxsize, 0)
    elif maxsize is not None:
        raise TypeError('Expected first argument to be an integer, a callable, or None')
    return lambda user_function: update_wrapper(_lru_wrapper(user_function, maxsize, typed), user_function)


def _lru_wrapper(user_function, maxsize, typed):
    cache = {}
    hits = misses = 0
    unseen = object()

    def wrapper(*args, **kwds):
        nonlocal hits, misses
        if maxsize == 0:
            misses += 1
            return user_function(*args, **kwds)
        key = _make_key(args, kwds, typed)
        # bounded: pop and re-insert, so the dict's order is least recent first
        found = cache.get(key, unseen) if maxsize is None else cache.pop(key, unseen)
        if found is not unseen:
            if maxsize is not None:
                cache[key] = found
            hits += 1
            return found
        misses += 1
        found = user_function(*args, **kwds)
        if maxsize is None:
            cache[key] = found
        elif key not in cache:
            if len(cache) >= maxsize:
                del cache[next(iter(cache))]
            cache[key] = found
        return found

    def cache_info():
        return _CacheInfo(hits, misses, maxsize, len(cache))

    def cache_clear():
        nonlocal hits, misses
        cache.clear()
        hits = misses = 0

    wrapper.cache_info = cache_info
    wrapper.cache_clear = cache_clear
    return wrapper


def cache(user_function):
    """An unbounded lru_cache."""
    return lru_cache(None)(user_function)


class cached_property:
    def __init__(self, func):
        self.func = func
        self.__doc__ = func.__doc__
        self.attrname = None

    def __set_name__(self, owner, name):
        known = self.attrname
        if known is not None and known != name:
            raise TypeError("Cannot assign the same cached_property to two different names "
                            f"({known!r} and {name!r}).")
        self.attrname = name

    def __get__(self, instance, owner=None):
        if instance is None:
            return self
        name = self.attrname
        if name is None:
            raise TypeError("Cannot use cached_property instance without calling __set_name__ on it.")
        try:
            store = instance.__dict__
        except AttributeError:
            raise TypeError(f"No '__dict__' attribute on {type(instance).__name__!r} "
                            f"instance to cache {name!r} property.") from None
        if name in store:
            return store[name]
        value = store[name] = self.func(instance)
        return value


def singledispatch(func):
    registry = {object: func}
    funcname = getattr(func, '__name__', 'singledispatch function')

    def dispatch(cls):
        return next((registry[c] for c in cls.__mro__ if c in registry), func)

    def register(cls, f=None):
        if f is None and isinstance(cls, type):
            return lambda impl: register(cls, impl)
        if f is None:
            # @register on an annotated function: the first annotation is the type
            f, annotations = cls, getattr(cls, '__annotations__', {})
            if not annotations:
                raise TypeError(f"Invalid first argument to `register()`: {f!r}. "
                                "Use either `@register(some_class)` or plain `@register` "
                                "on an annotated function.")
            cls = list(annotations.values())[0]
        registry[cls] = f
        return f

    def wrapper(*args, **kw):
        if args:
            return dispatch(args[0].__class__)(*args, **kw)
        raise TypeError(f'{funcname} requires at least 1 positional argument')

    update_wrapper(wrapper, func)
    wrapper.register = register
    wrapper.dispatch = dispatch
    wrapper.registry = registry
    return wrapper
