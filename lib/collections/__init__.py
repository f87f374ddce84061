"""collections (pure Python): deque, defaultdict, Counter, OrderedDict,
namedtuple, ChainMap."""

import sys as _sys
from itertools import chain as _chain, repeat as _repeat, starmap as _starmap
from operator import itemgetter as _itemgetter

__all__ = ['ChainMap', 'Counter', 'OrderedDict', 'defaultdict', 'deque', 'namedtuple']


class deque:
    """A double-ended queue on a circular buffer."""

    __abc_tpflags__ = 1 << 5  # a sequence for match statements (Py_TPFLAGS_SEQUENCE)

    def __init__(self, iterable=None, maxlen=None):
        if maxlen is not None:
            if not isinstance(maxlen, int):
                raise TypeError('an integer is required')
            if maxlen < 0:
                raise ValueError('maxlen must be non-negative')
        self._maxlen = maxlen
        self._buf = [None] * 8
        self._head = 0
        self._len = 0
        self._state = 0
        if iterable is not None:
            self.extend(iterable)

    @property
    def maxlen(self):
        return self._maxlen

    def _grow(self):
        buf, n, h = self._buf, len(self._buf), self._head
        self._buf = buf[h:] + buf[:h] + [None] * n
        self._head = 0

    def append(self, x):
        if self._maxlen is not None and self._len >= self._maxlen:
            if self._maxlen == 0:
                return
            self.popleft()
        if self._len == len(self._buf):
            self._grow()
        self._buf[(self._head + self._len) % len(self._buf)] = x
        self._len += 1
        self._state += 1

    def appendleft(self, x):
        if self._maxlen is not None and self._len >= self._maxlen:
            if self._maxlen == 0:
                return
            self.pop()
        if self._len == len(self._buf):
            self._grow()
        self._head = (self._head - 1) % len(self._buf)
        self._buf[self._head] = x
        self._len += 1
        self._state += 1

    def pop(self):
        if not self._len:
            raise IndexError('pop from an empty deque')
        self._len -= 1
        i = (self._head + self._len) % len(self._buf)
        x = self._buf[i]
        self._buf[i] = None
        self._state += 1
        return x

    def popleft(self):
        if not self._len:
            raise IndexError('pop from an empty deque')
        x = self._buf[self._head]
        self._buf[self._head] = None
        self._head = (self._head + 1) % len(self._buf)
        self._len -= 1
        self._state += 1
        return x

    def extend(self, iterable):
        if iterable is self:
            iterable = list(iterable)
        for x in iterable:
            self.append(x)

    def extendleft(self, iterable):
        if iterable is self:
            iterable = list(iterable)
        for x in iterable:
            self.appendleft(x)

    def clear(self):
        self._buf = [None] * 8
        self._head = 0
        self._len = 0
        self._state += 1

    def copy(self):
        return self.__class__(self, self._maxlen)

    __copy__ = copy

    def count(self, x):
        return sum(1 for v in self if v is x or v == x)

    def index(self, x, start=0, stop=None):
        n = self._len
        if stop is None or stop > n:
            stop = n
        if start < 0:
            start = max(start + n, 0)
        if stop < 0:
            stop += n
        for i in range(start, stop):
            v = self[i]
            if v is x or v == x:
                return i
        raise ValueError('%r is not in deque' % (x,))

    def insert(self, i, x):
        if self._maxlen is not None and self._len >= self._maxlen:
            raise IndexError('deque already at its maximum size')
        items = list(self)
        items.insert(i, x)
        self.clear()
        self.extend(items)

    def remove(self, value):
        for i in range(self._len):
            v = self[i]
            if v is value or v == value:
                del self[i]
                return
        raise ValueError('deque.remove(x): x not in deque')

    def reverse(self):
        items = list(self)
        items.reverse()
        self.clear()
        self.extend(items)

    def rotate(self, n=1):
        if self._len <= 1:
            return
        n %= self._len
        for _ in range(n):
            self.appendleft(self.pop())

    def _index(self, i):
        n = self._len
        if i < 0:
            i += n
        if not 0 <= i < n:
            raise IndexError('deque index out of range')
        return (self._head + i) % len(self._buf)

    def __getitem__(self, i):
        if isinstance(i, slice):
            raise TypeError('sequence index must be integer, not \'slice\'')
        return self._buf[self._index(i)]

    def __setitem__(self, i, x):
        self._buf[self._index(i)] = x

    def __delitem__(self, i):
        items = list(self)
        del items[i]
        self.clear()
        self.extend(items)

    def __len__(self):
        return self._len

    def __bool__(self):
        return self._len > 0

    def __iter__(self):
        state = self._state
        buf, head, n = self._buf, self._head, len(self._buf)
        for k in range(self._len):
            if self._state != state:
                raise RuntimeError('deque mutated during iteration')
            yield buf[(head + k) % n]

    def __reversed__(self):
        for k in range(self._len - 1, -1, -1):
            yield self[k]

    def __contains__(self, x):
        for v in self:
            if v is x or v == x:
                return True
        return False

    def __repr__(self):
        if self._maxlen is None:
            return 'deque(%r)' % (list(self),)
        return 'deque(%r, maxlen=%d)' % (list(self), self._maxlen)

    def __eq__(self, other):
        if not isinstance(other, deque):
            return NotImplemented
        return list(self) == list(other)

    def __lt__(self, other):
        if not isinstance(other, deque):
            return NotImplemented
        return list(self) < list(other)

    def __le__(self, other):
        if not isinstance(other, deque):
            return NotImplemented
        return list(self) <= list(other)

    def __gt__(self, other):
        if not isinstance(other, deque):
            return NotImplemented
        return list(self) > list(other)

    def __ge__(self, other):
        if not isinstance(other, deque):
            return NotImplemented
        return list(self) >= list(other)

    __hash__ = None

    def __add__(self, other):
        if not isinstance(other, deque):
            raise TypeError('can only concatenate deque (not "%s") to deque' % type(other).__name__)
        d = self.copy()
        d.extend(other)
        return d

    def __iadd__(self, other):
        self.extend(other)
        return self

    def __mul__(self, n):
        d = self.__class__(None, self._maxlen)
        for _ in range(n):
            d.extend(self)
        return d

    def __imul__(self, n):
        items = list(self)
        self.clear()
        for _ in range(n):
            self.extend(items)
        return self


class defaultdict(dict):
    def __init__(self, default_factory=None, *args, **kwargs):
        if default_factory is not None and not callable(default_factory):
            raise TypeError('first argument must be callable or None')
        dict.__init__(self, *args, **kwargs)
        self.default_factory = default_factory

    def __missing__(self, key):
        if self.default_factory is None:
            raise KeyError(key)
        self[key] = value = self.default_factory()
        return value

    def __repr__(self):
        return '%s(%r, %s)' % (type(self).__name__, self.default_factory, dict.__repr__(self))

    def copy(self):
        return type(self)(self.default_factory, self)

    __copy__ = copy


class OrderedDict(dict):
    """dicts keep insertion order; this adds move_to_end, popitem(last) and
    order-sensitive equality."""

    def popitem(self, last=True):
        if not self:
            raise KeyError('dictionary is empty')
        key = next(reversed(self)) if last else next(iter(self))
        value = dict.pop(self, key)
        return key, value

    def move_to_end(self, key, last=True):
        value = dict.pop(self, key)
        if last:
            dict.__setitem__(self, key, value)
        else:
            items = list(dict.items(self))
            dict.clear(self)
            dict.__setitem__(self, key, value)
            for k, v in items:
                dict.__setitem__(self, k, v)

    def __repr__(self):
        if not self:
            return '%s()' % (self.__class__.__name__,)
        return '%s(%r)' % (self.__class__.__name__, list(self.items()))

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
        self = cls()
        for key in iterable:
            self[key] = value
        return self


class Counter(dict):
    def __init__(self, iterable=None, /, **kwds):
        super().__init__()
        self.update(iterable, **kwds)

    def __missing__(self, key):
        return 0

    def total(self):
        return sum(self.values())

    def most_common(self, n=None):
        if n is None:
            return sorted(self.items(), key=_itemgetter(1), reverse=True)
        import heapq
        return heapq.nlargest(n, self.items(), key=_itemgetter(1))

    def elements(self):
        return _chain.from_iterable(_starmap(_repeat, self.items()))

    @classmethod
    def fromkeys(cls, iterable, v=None):
        raise NotImplementedError('Counter.fromkeys() is undefined.  Use Counter(iterable) instead.')

    def update(self, iterable=None, /, **kwds):
        if iterable is not None:
            if isinstance(iterable, dict):
                if self:
                    self_get = self.get
                    for elem, count in iterable.items():
                        self[elem] = count + self_get(elem, 0)
                else:
                    dict.update(self, iterable)
            else:
                self_get = self.get
                for elem in iterable:
                    self[elem] = self_get(elem, 0) + 1
        if kwds:
            self.update(kwds)

    def subtract(self, iterable=None, /, **kwds):
        if iterable is not None:
            self_get = self.get
            if isinstance(iterable, dict):
                for elem, count in iterable.items():
                    self[elem] = self_get(elem, 0) - count
            else:
                for elem in iterable:
                    self[elem] = self_get(elem, 0) - 1
        if kwds:
            self.subtract(kwds)

    def copy(self):
        return self.__class__(self)

    def __delitem__(self, elem):
        if elem in self:
            dict.__delitem__(self, elem)

    def __repr__(self):
        if not self:
            return f'{self.__class__.__name__}()'
        items = ', '.join(map('%r: %r'.__mod__, self.most_common()))
        return f'{self.__class__.__name__}({{{items}}})'

    def __eq__(self, other):
        if not isinstance(other, Counter):
            return NotImplemented
        return all(self[e] == other[e] for c in (self, other) for e in c)

    def __ne__(self, other):
        if not isinstance(other, Counter):
            return NotImplemented
        return not self == other

    def __add__(self, other):
        if not isinstance(other, Counter):
            return NotImplemented
        result = Counter()
        for elem, count in self.items():
            newcount = count + other[elem]
            if newcount > 0:
                result[elem] = newcount
        for elem, count in other.items():
            if elem not in self and count > 0:
                result[elem] = count
        return result

    def __sub__(self, other):
        if not isinstance(other, Counter):
            return NotImplemented
        result = Counter()
        for elem, count in self.items():
            newcount = count - other[elem]
            if newcount > 0:
                result[elem] = newcount
        for elem, count in other.items():
            if elem not in self and count < 0:
                result[elem] = 0 - count
        return result

    def __or__(self, other):
        if not isinstance(other, Counter):
            return NotImplemented
        result = Counter()
        for elem, count in self.items():
            other_count = other[elem]
            newcount = other_count if count < other_count else count
            if newcount > 0:
                result[elem] = newcount
        for elem, count in other.items():
            if elem not in self and count > 0:
                result[elem] = count
        return result

    def __and__(self, other):
        if not isinstance(other, Counter):
            return NotImplemented
        result = Counter()
        for elem, count in self.items():
            other_count = other[elem]
            newcount = count if count < other_count else other_count
            if newcount > 0:
                result[elem] = newcount
        return result

    def __pos__(self):
        result = Counter()
        for elem, count in self.items():
            if count > 0:
                result[elem] = count
        return result

    def __neg__(self):
        result = Counter()
        for elem, count in self.items():
            if count < 0:
                result[elem] = 0 - count
        return result

    def _keep_positive(self):
        nonpositive = [elem for elem, count in self.items() if not count > 0]
        for elem in nonpositive:
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


def namedtuple(typename, field_names, *, rename=False, defaults=None, module=None):
    if isinstance(field_names, str):
        field_names = field_names.replace(',', ' ').split()
    field_names = list(map(str, field_names))
    typename = _sys.intern(str(typename))
    if rename:
        seen = set()
        for index, name in enumerate(field_names):
            if (not name.isidentifier() or name.startswith('_') or name in seen):
                field_names[index] = f'_{index}'
            seen.add(name)
    for name in [typename] + field_names:
        if type(name) is not str:
            raise TypeError('Type names and field names must be strings')
        if not name.isidentifier():
            raise ValueError('Type names and field names must be valid identifiers: %r' % name)
    seen = set()
    for name in field_names:
        if name.startswith('_') and not rename:
            raise ValueError('Field names cannot start with an underscore: %r' % name)
        if name in seen:
            raise ValueError('Encountered duplicate field name: %r' % name)
        seen.add(name)
    field_names = tuple(field_names)
    num_fields = len(field_names)
    field_defaults = {}
    if defaults is not None:
        defaults = tuple(defaults)
        if len(defaults) > num_fields:
            raise TypeError('Got more default values than field names')
        field_defaults = dict(reversed(list(zip(reversed(field_names), reversed(defaults)))))

    def __new__(_cls, *args, **kwargs):
        if len(args) > num_fields:
            raise TypeError(f'{typename}.__new__() takes {num_fields + 1} positional arguments '
                            f'but {len(args) + 1} were given')
        values = list(args)
        for name in field_names[len(args):]:
            if name in kwargs:
                values.append(kwargs.pop(name))
            elif name in field_defaults:
                values.append(field_defaults[name])
            else:
                missing = [n for n in field_names[len(values):]
                           if n not in kwargs and n not in field_defaults]
                if len(missing) == 1:
                    raise TypeError(f"{typename}.__new__() missing 1 required positional "
                                    f"argument: {missing[0]!r}")
                names = ', '.join(repr(n) for n in missing[:-1]) + f' and {missing[-1]!r}'
                raise TypeError(f"{typename}.__new__() missing {len(missing)} required "
                                f"positional arguments: {names}")
        if kwargs:
            k = next(iter(kwargs))
            if k in field_names:
                raise TypeError(f"{typename}.__new__() got multiple values for argument {k!r}")
            raise TypeError(f"{typename}.__new__() got an unexpected keyword argument {k!r}")
        return tuple.__new__(_cls, values)

    @classmethod
    def _make(cls, iterable):
        result = tuple.__new__(cls, iterable)
        if len(result) != num_fields:
            raise TypeError(f'Expected {num_fields} arguments, got {len(result)}')
        return result

    def _replace(self, /, **kwds):
        result = self._make(map(kwds.pop, field_names, self))
        if kwds:
            raise ValueError(f'Got unexpected field names: {list(kwds)!r}')
        return result

    def __repr__(self):
        return self.__class__.__name__ + '(' + ', '.join(
            f'{n}={v!r}' for n, v in zip(field_names, self)) + ')'

    def _asdict(self):
        return dict(zip(self._fields, self))

    def __getnewargs__(self):
        return tuple(self)

    class_namespace = {
        '__doc__': f'{typename}({", ".join(field_names)})',
        '__slots__': (),
        '_fields': field_names,
        '_field_defaults': field_defaults,
        '__new__': __new__,
        '_make': _make,
        '_replace': _replace,
        '__repr__': __repr__,
        '_asdict': _asdict,
        '__getnewargs__': __getnewargs__,
        '__match_args__': field_names,
    }
    for index, name in enumerate(field_names):
        class_namespace[name] = property(_itemgetter(index), doc=f'Alias for field number {index}')
    result = type(typename, (tuple,), class_namespace)
    if module is None:
        try:
            module = _sys._getframe(1).f_globals.get('__name__', '__main__')
        except (AttributeError, ValueError):
            module = '__main__'
    if module is not None:
        result.__module__ = module
    return result


class ChainMap:
    __abc_tpflags__ = 1 << 6  # a mapping for match statements (Py_TPFLAGS_MAPPING)

    def __init__(self, *maps):
        self.maps = list(maps) or [{}]

    def __missing__(self, key):
        raise KeyError(key)

    def __getitem__(self, key):
        for mapping in self.maps:
            try:
                return mapping[key]
            except KeyError:
                pass
        return self.__missing__(key)

    def get(self, key, default=None):
        return self[key] if key in self else default

    def __len__(self):
        return len(set().union(*self.maps))

    def __iter__(self):
        d = {}
        for mapping in reversed(self.maps):
            d.update(dict.fromkeys(mapping))
        return iter(d)

    def __contains__(self, key):
        return any(key in m for m in self.maps)

    def __bool__(self):
        return any(self.maps)

    def __repr__(self):
        return f'{self.__class__.__name__}({", ".join(map(repr, self.maps))})'

    def keys(self):
        return list(self)

    def items(self):
        return [(k, self[k]) for k in self]

    def values(self):
        return [self[k] for k in self]

    def new_child(self, m=None):
        if m is None:
            m = {}
        return self.__class__(m, *self.maps)

    @property
    def parents(self):
        return self.__class__(*self.maps[1:])

    def __setitem__(self, key, value):
        self.maps[0][key] = value

    def __delitem__(self, key):
        try:
            del self.maps[0][key]
        except KeyError:
            raise KeyError(f'Key not found in the first mapping: {key!r}')
