"""operator: the operators as functions (pure Python)."""

__all__ = ['abs', 'add', 'and_', 'attrgetter', 'concat', 'contains', 'countOf', 'eq', 'floordiv',
           'ge', 'getitem', 'gt', 'index', 'indexOf', 'inv', 'invert', 'is_', 'is_not', 'itemgetter',
           'le', 'lshift', 'lt', 'methodcaller', 'mod', 'mul', 'ne', 'neg', 'not_', 'or_', 'pos',
           'pow', 'rshift', 'setitem', 'delitem', 'sub', 'truediv', 'truth', 'xor', 'matmul',
           'iadd', 'isub', 'imul', 'itruediv', 'ifloordiv', 'imod', 'ipow', 'ilshift', 'irshift',
           'iand', 'ior', 'ixor', 'iconcat', 'length_hint']


def lt(a, b): return a < b
def le(a, b): return a <= b
def eq(a, b): return a == b
def ne(a, b): return a != b
def ge(a, b): return a >= b
def gt(a, b): return a > b
def not_(a): return not a
def truth(a): return True if a else False
def is_(a, b): return a is b
def is_not(a, b): return a is not b
def add(a, b): return a + b
def and_(a, b): return a & b
def floordiv(a, b): return a // b
def index(a):
    f = getattr(type(a), '__index__', None)
    if f is None:
        raise TypeError(f"'{type(a).__name__}' object cannot be interpreted as an integer")
    r = f(a)
    if not isinstance(r, int):
        raise TypeError(f"__index__ returned non-int (type {type(r).__name__})")
    return r
def inv(a): return ~a
invert = inv
def lshift(a, b): return a << b
def mod(a, b): return a % b
def mul(a, b): return a * b
def matmul(a, b): return a @ b
def neg(a): return -a
def or_(a, b): return a | b
def pos(a): return +a
def pow(a, b): return a ** b
def rshift(a, b): return a >> b
def sub(a, b): return a - b
def truediv(a, b): return a / b
def xor(a, b): return a ^ b


def concat(a, b):
    # only sequences (things with __getitem__) concatenate
    if hasattr(a, '__getitem__'):
        return a + b
    raise TypeError("'%s' object can't be concatenated" % type(a).__name__)


def contains(a, b): return b in a


def countOf(a, b):
    return sum(1 for x in a if x is b or x == b)


def indexOf(a, b):
    position = 0
    for x in a:
        if x is b or x == b:
            return position
        position += 1
    raise ValueError('sequence.index(x): x not in sequence')


def getitem(a, b): return a[b]
def setitem(a, b, c): a[b] = c
def delitem(a, b): del a[b]


def length_hint(obj, default=0):
    try:
        return len(obj)
    except TypeError:
        return default


def iadd(a, b):
    a += b
    return a
def isub(a, b):
    a -= b
    return a
def imul(a, b):
    a *= b
    return a
def itruediv(a, b):
    a /= b
    return a
def ifloordiv(a, b):
    a //= b
    return a
def imod(a, b):
    a %= b
    return a
def ipow(a, b):
    a **= b
    return a
def ilshift(a, b):
    a <<= b
    return a
def irshift(a, b):
    a >>= b
    return a
def iand(a, b):
    a &= b
    return a
def ior(a, b):
    a |= b
    return a
def ixor(a, b):
    a ^= b
    return a
def iconcat(a, b):
    a += b
    return a


def _follow(obj, path):
    """getattr along a dotted name already split: obj.a.b for ['a', 'b']."""
    for part in path:
        obj = getattr(obj, part)
    return obj


class attrgetter:
    __slots__ = ('_attrs', '_paths')

    def __init__(self, attr, *attrs):
        names = (attr,) + attrs
        if not all(isinstance(n, str) for n in names):
            raise TypeError('attribute name must be a string')
        self._attrs = names
        self._paths = tuple(n.split('.') for n in names)

    def __call__(self, obj):
        paths = self._paths
        if len(paths) == 1:
            return _follow(obj, paths[0])
        return tuple([_follow(obj, p) for p in paths])

    def __repr__(self):
        return 'operator.attrgetter(%s)' % ', '.join([repr(a) for a in self._attrs])


class itemgetter:
    __slots__ = ('_items', '_many')

    def __init__(self, item, *items):
        self._items = (item,) + items
        self._many = bool(items)        # several keys: a tuple of the items

    def __call__(self, obj):
        if self._many:
            return tuple([obj[k] for k in self._items])
        return obj[self._items[0]]

    def __repr__(self):
        return 'operator.itemgetter(%s)' % ', '.join([repr(i) for i in self._items])


class methodcaller:
    __slots__ = ('_name', '_args', '_kwargs')

    def __init__(self, name, /, *args, **kwargs):
        if not isinstance(name, str):
            raise TypeError('method name must be a string')
        self._name, self._args, self._kwargs = name, args, kwargs

    def __call__(self, obj):
        bound = getattr(obj, self._name)
        return bound(*self._args, **self._kwargs)

    def __repr__(self):
        shown = [repr(self._name), *[repr(a) for a in self._args],
                 *['%s=%r' % pair for pair in self._kwargs.items()]]
        return 'operator.methodcaller(%s)' % ', '.join(shown)


import builtins as _b
_abs = _b.abs


def abs(a):
    return _abs(a)


__lt__ = lt; __le__ = le; __eq__ = eq; __ne__ = ne; __ge__ = ge; __gt__ = gt
__not__ = not_; __abs__ = abs; __add__ = add; __and__ = and_; __floordiv__ = floordiv
__index__ = index; __inv__ = inv; __invert__ = invert; __lshift__ = lshift; __mod__ = mod
__mul__ = mul; __matmul__ = matmul; __neg__ = neg; __or__ = or_; __pos__ = pos; __pow__ = pow
__rshift__ = rshift; __sub__ = sub; __truediv__ = truediv; __xor__ = xor; __concat__ = concat
__contains__ = contains; __getitem__ = getitem; __setitem__ = setitem; __delitem__ = delitem
