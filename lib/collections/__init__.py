"""collections: deque (built in, from _collections), and in Python defaultdict,
Counter, OrderedDict, namedtuple, ChainMap; the operations of defaultdict and
OrderedDict that CPython makes atomic are C functions of _collections."""

import _collections_abc
import sys as _sys
from itertools import chain as _chain, repeat as _repeat, starmap as _starmap
from operator import itemgetter as _itemgetter

__all__ = ['ChainMap', 'Counter', 'OrderedDict', 'UserDict', 'UserList', 'UserString', 'defaultdict', 'deque',
           'namedtuple']


# C: each operation is one atomic step (vm/objects/dequeobject.c, vm/modules/collectionsmodule.c).
# Without _collections (blocked, as test.support's import_fresh_module does for the pure-Python
# variants) the module imports as CPython's does: no deque, the operations below in Python.
try:
    import _collections
except ImportError:
    _collections = None
else:
    from _collections import deque, _count_elements


def _py_defaultdict_missing(self, key):
    if self.default_factory is None:
        raise KeyError(key)
    self[key] = value = self.default_factory()
    return value


def _py_odict_popitem(self, last=True):
    if not self:
        raise KeyError('dictionary is empty')
    key = next(reversed(self) if last else iter(self))
    return key, dict.pop(self, key)


def _py_odict_move_to_end(self, key, last=True):
    value = dict.pop(self, key)
    if last:
        dict.__setitem__(self, key, value)
    else:
        rest = list(dict.items(self))
        dict.clear(self)
        dict.__setitem__(self, key, value)
        for k, v in rest:
            dict.__setitem__(self, k, v)


def _py_guarded_repr(obj, fn, _running=set()):
    from _thread import get_ident
    key = id(obj), get_ident()
    if key in _running:
        return '...'
    _running.add(key)
    try:
        return fn(obj)
    finally:
        _running.discard(key)


if _collections is None:
    def _count_elements(mapping, iterable):
        mapping_get = mapping.get
        for elem in iterable:
            mapping[elem] = mapping_get(elem, 0) + 1
    _guarded_repr = _py_guarded_repr
else:
    _guarded_repr = _collections.guarded_repr


class defaultdict(dict):
    def __init__(self, default_factory=None, *args, **kwargs):
        if default_factory is not None and not callable(default_factory):
            raise TypeError('first argument must be callable or None')
        dict.__init__(self, *args, **kwargs)
        self.default_factory = default_factory

    # the factory call and the insertion in one step
    __missing__ = _collections.defaultdict_missing if _collections else _py_defaultdict_missing

    def __repr__(self):
        return '%s(%r, %s)' % (type(self).__name__, self.default_factory, dict.__repr__(self))

    def copy(self):
        return type(self)(self.default_factory, self)

    __copy__ = copy


_odict_marker = object()


def _odict_repr(od):
    name = od.__class__.__name__
    return '%s(%r)' % (name, list(od.items())) if od else name + '()'


class OrderedDict(dict):
    """dicts keep insertion order; this adds move_to_end, popitem(last) and
    order-sensitive equality."""

    # each reorders the dict in one step
    popitem = _collections.odict_popitem if _collections else _py_odict_popitem
    move_to_end = _collections.odict_move_to_end if _collections else _py_odict_move_to_end

    def __repr__(self):
        return _guarded_repr(self, _odict_repr)

    def __eq__(self, other):
        if isinstance(other, OrderedDict):
            return dict.__eq__(self, other) and list(self) == list(other)
        return dict.__eq__(self, other)

    def __ne__(self, other):
        return not self == other

    __hash__ = None

    def copy(self):
        return self.__class__(self)

    @classmethod
    def fromkeys(cls, iterable, value=None):
        made = cls()
        for key in iterable:
            made[key] = value       # through __setitem__, for subclasses
        return made

    # CPython's signatures (default by keyword); one dict operation each
    def pop(self, key, default=_odict_marker):
        if default is _odict_marker:
            return dict.pop(self, key)
        return dict.pop(self, key, default)

    def setdefault(self, key, default=None):
        if type(self) is OrderedDict:
            return dict.setdefault(self, key, default)
        if key in self:
            return self[key]
        self[key] = default
        return default

    def __reduce__(self):
        # (class, (), instance state without what every OrderedDict has, None, items)
        state = self.__getstate__()
        if state:
            if isinstance(state, tuple):
                state, slots = state
            else:
                slots = {}
            state = dict(state) if state else {}
            slots = dict(slots) if slots else {}
            for k in vars(OrderedDict()):
                state.pop(k, None)
                slots.pop(k, None)
            state = (state or None, slots) if slots else (state or None)
        return self.__class__, (), state, None, iter(self.items())

    def __or__(self, other):
        if not isinstance(other, dict):
            return NotImplemented
        new = self.__class__(self)
        new.update(other)
        return new

    def __ror__(self, other):
        if not isinstance(other, dict):
            return NotImplemented
        new = self.__class__(other)
        new.update(self)
        return new

    def __ior__(self, other):
        self.update(other)
        return self


class Counter(dict):
    def __init__(self, iterable=None, /, **kwds):
        super().__init__()
        self.update(iterable, **kwds)

    def __missing__(self, key):
        return 0            # a missing element counts zero (and is not stored)

    def total(self):
        return sum(self.values())

    def most_common(self, n=None):
        # sorted() is stable: equal counts keep their insertion order
        ranked = sorted(self.items(), key=_itemgetter(1), reverse=True)
        return ranked if n is None else ranked[:max(n, 0)]

    def elements(self):
        return _chain.from_iterable(_repeat(elem, count) for elem, count in self.items())

    @classmethod
    def fromkeys(cls, iterable, v=None):
        raise NotImplementedError('Counter.fromkeys() is undefined.  Use Counter(iterable) instead.')

    def update(self, iterable=None, /, **kwds):
        if iterable is None:
            pass
        elif not isinstance(iterable, dict):
            _count_elements(self, iterable)         # one more of each element seen
        elif self:
            for elem, count in iterable.items():
                self[elem] = count + self.get(elem, 0)
        else:
            dict.update(self, iterable)             # nothing to add to
        if kwds:
            self.update(kwds)

    def subtract(self, iterable=None, /, **kwds):
        if iterable is not None:
            pairs = iterable.items() if isinstance(iterable, dict) else ((elem, 1) for elem in iterable)
            for elem, count in pairs:
                self[elem] = self.get(elem, 0) - count
        if kwds:
            self.subtract(kwds)

    def copy(self):
        return self.__class__(self)

    def __delitem__(self, elem):
        if elem in self:            # deleting a missing element is no error
            dict.__delitem__(self, elem)

    def __repr__(self):
        name = self.__class__.__name__
        if not self:
            return name + '()'
        try:
            shown = dict(self.most_common())
        except TypeError:           # counts that do not order
            shown = dict(self)
        return '%s(%r)' % (name, shown)

    # ---- comparisons: every element of either counter, missing ones as 0 ----
    def _every_count(self, other, test):
        for source in (self, other):
            for elem in source:
                if not test(self[elem], other[elem]):
                    return False
        return True

    def __eq__(self, other):
        if not isinstance(other, Counter):
            return NotImplemented
        return self._every_count(other, lambda a, b: a == b)

    def __ne__(self, other):
        if not isinstance(other, Counter):
            return NotImplemented
        return not self == other

    def __le__(self, other):
        if not isinstance(other, Counter):
            return NotImplemented
        return self._every_count(other, lambda a, b: a <= b)

    def __lt__(self, other):
        if not isinstance(other, Counter):
            return NotImplemented
        return self <= other and self != other

    def __ge__(self, other):
        if not isinstance(other, Counter):
            return NotImplemented
        return self._every_count(other, lambda a, b: a >= b)

    def __gt__(self, other):
        if not isinstance(other, Counter):
            return NotImplemented
        return self >= other and self != other

    # ---- multiset arithmetic: a new Counter of the positive results ----
    def _combined(self, other, merge, other_side):
        """merge(self[e], other[e]) for self's elements in order, then
        other_side(count) for the elements only other has."""
        if not isinstance(other, Counter):
            return NotImplemented
        out = {}
        for elem, count in self.items():
            value = merge(count, other[elem])
            if value > 0:
                out[elem] = value
        if other_side is not None:
            for elem, count in other.items():
                if elem not in self:
                    value = other_side(count)
                    if value is not None:
                        out[elem] = value
        return Counter(out)

    def __add__(self, other):
        return self._combined(other, lambda a, b: a + b, lambda c: c if c > 0 else None)

    def __sub__(self, other):
        return self._combined(other, lambda a, b: a - b, lambda c: 0 - c if c < 0 else None)

    def __or__(self, other):
        return self._combined(other, lambda a, b: b if a < b else a, lambda c: c if c > 0 else None)

    def __and__(self, other):
        return self._combined(other, lambda a, b: a if a < b else b, None)

    def __pos__(self):
        return Counter({elem: count for elem, count in self.items() if count > 0})

    def __neg__(self):
        return Counter({elem: 0 - count for elem, count in self.items() if count < 0})

    def _keep_positive(self):
        for elem, count in list(self.items()):
            if not count > 0:
                del self[elem]
        return self

    def __iadd__(self, other):
        for elem, count in other.items():
            self[elem] += count
        return self._keep_positive()

    def __isub__(self, other):
        for elem, count in other.items():
            self[elem] -= count
        return self._keep_positive()

    def __ior__(self, other):
        for elem, theirs in other.items():
            if theirs > self[elem]:
                self[elem] = theirs
        return self._keep_positive()

    def __iand__(self, other):
        for elem, mine in self.items():
            theirs = other[elem]
            if theirs < mine:
                self[elem] = theirs
        return self._keep_positive()


_KEYWORDS = frozenset('False None True and as assert async await break class continue def del elif else '
                      'except finally for from global if import in is lambda nonlocal not or pass raise '
                      'return try while with yield'.split())


def _check_names(typename, field_names, rename):
    """CPython's checks and messages for namedtuple names (field_names: a list, renamed in place)."""
    if rename:
        taken = set()
        for i, name in enumerate(field_names):
            if not name.isidentifier() or name in _KEYWORDS or name.startswith('_') or name in taken:
                field_names[i] = '_%d' % i
            taken.add(name)
    for name in [typename, *field_names]:
        if type(name) is not str:
            raise TypeError('Type names and field names must be strings')
        if not name.isidentifier():
            raise ValueError(f'Type names and field names must be valid identifiers: {name!r}')
        if name in _KEYWORDS:
            raise ValueError(f'Type names and field names cannot be a keyword: {name!r}')
    taken = set()
    for name in field_names:
        if name.startswith('_') and not rename:
            raise ValueError(f'Field names cannot start with an underscore: {name!r}')
        if name in taken:
            raise ValueError(f'Encountered duplicate field name: {name!r}')
        taken.add(name)


def namedtuple(typename, field_names, *, rename=False, defaults=None, module=None):
    if isinstance(field_names, str):
        field_names = field_names.replace(',', ' ').split()
    names = [str(n) for n in field_names]
    typename = _sys.intern(str(typename))
    _check_names(typename, names, rename)
    names = tuple(names)
    count = len(names)
    if defaults is None:
        field_defaults = {}
    else:
        defaults = tuple(defaults)
        if len(defaults) > count:
            raise TypeError('Got more default values than field names')
        field_defaults = dict(zip(names[count - len(defaults):], defaults))

    # __new__ is a real function with one parameter per field, so its
    # __defaults__ (namedtuple(defaults=) or assigned later) are the
    # defaults a call binds, and the call's errors are Python's own.
    params = ', '.join(names)
    source = f'def __new__(_cls, {params}):\n    return _tuple_new(_cls, ({"".join(n + ", " for n in names)}))\n'
    scope = {'_tuple_new': tuple.__new__, '__builtins__': {}, '__name__': f'namedtuple_{typename}'}
    exec(source, scope)
    __new__ = scope['__new__']
    __new__.__qualname__ = f'{typename}.__new__'
    __new__.__doc__ = f'Create new instance of {typename}({params})'
    if defaults is not None:
        __new__.__defaults__ = defaults

    def _make(cls, iterable):
        made = tuple.__new__(cls, iterable)
        got = len(made)
        if got != count:
            raise TypeError(f'Expected {count} arguments, got {got}')
        return made

    def _replace(self, /, **changes):
        made = self._make([changes.pop(name, old) for name, old in zip(names, self)])
        if changes:
            raise ValueError(f'Got unexpected field names: {list(changes)!r}')
        return made

    template = '(' + ', '.join(name + '=%r' for name in names) + ')'

    def __repr__(self):
        return self.__class__.__name__ + template % tuple(self)

    def _asdict(self):
        return dict(zip(self._fields, self))

    def __getnewargs__(self):
        return tuple(self)

    namespace = {
        '__doc__': '%s(%s)' % (typename, ', '.join(names)),
        '__slots__': (),
        '_fields': names,
        '_field_defaults': field_defaults,
        '__new__': __new__,
        '_make': classmethod(_make),
        '_replace': _replace,
        '__repr__': __repr__,
        '_asdict': _asdict,
        '__getnewargs__': __getnewargs__,
        '__match_args__': names,
    }
    for position, name in enumerate(names):
        namespace[name] = property(_itemgetter(position), doc='Alias for field number %d' % position)
    made = type(typename, (tuple,), namespace)
    if module is None:
        try:
            module = _sys._getframe(1).f_globals.get('__name__', '__main__')
        except (AttributeError, ValueError):
            module = '__main__'
    made.__module__ = module
    return made


def _chainmap_repr(cm):
    return '%s(%s)' % (cm.__class__.__name__, ', '.join(repr(m) for m in cm.maps))


class ChainMap(_collections_abc.MutableMapping):
    """Several mappings seen as one: lookups search them in order, updates
    go to the first."""
    __abc_tpflags__ = 1 << 6  # a mapping for match statements (Py_TPFLAGS_MAPPING)

    def __init__(self, *maps):
        self.maps = list(maps) if maps else [{}]

    def __missing__(self, key):
        raise KeyError(key)

    def __getitem__(self, key):
        for mapping in self.maps:
            try:
                return mapping[key]         # (a defaultdict answers with its __missing__)
            except KeyError:
                continue
        return self.__missing__(key)

    def get(self, key, default=None):
        if key in self:
            return self[key]
        return default

    def __len__(self):
        seen = set()
        for mapping in self.maps:
            seen.update(mapping)
        return len(seen)

    def __iter__(self):
        # the first mapping's order wins for keys several mappings share
        order = {}
        for mapping in self.maps[::-1]:
            for key in mapping:
                order[key] = None
        return iter(order)

    def __contains__(self, key):
        for mapping in self.maps:
            if key in mapping:
                return True
        return False

    def __bool__(self):
        return any(self.maps)

    def __repr__(self):
        return _guarded_repr(self, _chainmap_repr)

    def __eq__(self, other):
        if not isinstance(other, (dict, ChainMap)):
            return NotImplemented
        return dict(self.items()) == dict(other.items())

    __hash__ = None

    @classmethod
    def fromkeys(cls, iterable, *args):
        return cls(dict.fromkeys(iterable, *args))

    def copy(self):
        first, *rest = self.maps
        return self.__class__(first.copy(), *rest)

    __copy__ = copy

    def new_child(self, m=None, **kwargs):
        if m is None:
            m = kwargs
        elif kwargs:
            m.update(kwargs)
        return self.__class__(m, *self.maps)

    @property
    def parents(self):
        return self.__class__(*self.maps[1:])

    def __setitem__(self, key, value):
        self.maps[0][key] = value

    def __delitem__(self, key):
        first = self.maps[0]
        if key not in first:
            raise KeyError(f'Key not found in the first mapping: {key!r}')
        del first[key]

    def pop(self, key, *default):
        first = self.maps[0]
        if key in first or default:
            return first.pop(key, *default)
        raise KeyError(f'Key not found in the first mapping: {key!r}')

    def popitem(self):
        first = self.maps[0]
        if not first:
            raise KeyError('No keys found in the first mapping.')
        return first.popitem()

    def clear(self):
        self.maps[0].clear()

    def __ior__(self, other):
        self.maps[0].update(other)
        return self

    def __or__(self, other):
        if not isinstance(other, (dict, ChainMap)):
            return NotImplemented
        merged = self.copy()
        merged.maps[0].update(other)
        return merged

    def __ror__(self, other):
        if not isinstance(other, (dict, ChainMap)):
            return NotImplemented
        merged = dict(other)
        for mapping in self.maps[::-1]:
            merged.update(mapping)
        return self.__class__(merged)


from collections._userclasses import UserDict, UserList, UserString
