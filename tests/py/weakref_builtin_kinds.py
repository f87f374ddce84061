# Which built-in objects take weak references (CPython's: the types with a weak
# reference list), and subclasses of int/tuple/bytes (no weak references, no
# nonempty __slots__).
import array, collections, functools, gc, io, itertools, re, weakref
class L(list): pass
class D(dict): pass
class I(int): pass
class T(tuple): pass
class S(str): pass
class F(float): pass
class B(bytes): pass
def f(): pass
objs = {"L": L(), "D": D(), "I": I(), "T": T(), "S": S(), "F": F(), "B": B(),
        "array": array.array('i'), "memoryview": memoryview(b'x'), "frozenset": frozenset(),
        "pattern": re.compile('x'), "partial": functools.partial(f), "lru": functools.lru_cache(f),
        "bytesio": io.BytesIO(), "stringio": io.StringIO(), "odict": collections.OrderedDict(), "deque": collections.deque(),
"method": "a".upper, "boundmeth": L().copy,
        "property": property(), "staticmethod": staticmethod(f), "classmethod": classmethod(f), "slice": slice(1),
        "range": range(1), "map": map(f, []), "list": [], "cell": (lambda: f).__closure__, "frame": None,
        "Counter": collections.Counter(), "chain": itertools.chain(), "ellipsis": ...}
for k, v in objs.items():
    try:
        weakref.ref(v); print(k, "ok")
    except TypeError as e:
        print(k, "TypeError", e)
for base in (int, tuple, bytes, str, float, list):
    for slots in (None, (), ('x',), ('__dict__',), ('__weakref__',), 'y'):
        ns = {} if slots is None else {'__slots__': slots}
        try:
            C = type('C', (base,), ns)
        except TypeError as e:
            print(base.__name__, slots, 'TypeError', e)
            continue
        try:
            weakref.ref(C()); print(base.__name__, slots, 'weakrefable')
        except TypeError as e:
            print(base.__name__, slots, 'not weakrefable', e)
class I(int): pass
class J(I): pass
try:
    class K(J): __slots__ = ('a',)
except TypeError as e:
    print(e)
print(hasattr(J, '__weakref__'), hasattr(I(), '__dict__'))
s = array.array('i', [1, 2])
p = weakref.proxy(s)
print(p.tobytes() == s.tobytes())
s = None
gc.collect()
try:
    len(p)
except ReferenceError as e:
    print("ReferenceError", e)

# __slots__ that CPython refuses
class Plain:
    pass
for bases, slots in [((), b'x'), ((int,), 'x'), ((), ''), ((), '42'), ((), 'x\x00y'),
                     ((), ('__dict__', '__dict__')), ((), ('__weakref__', '__weakref__')),
                     ((Plain,), '__dict__'), ((Plain,), '__weakref__'), ((tuple,), ['a']),
                     ((), ('a', 'a')), ((tuple,), ())]:
    try:
        type('A', bases, {'__slots__': slots})
        print(bases, repr(slots), 'ok')
    except (TypeError, ValueError) as e:
        print(bases, repr(slots), type(e).__name__, e)


class SubStr(str):
    pass


class X:
    __slots__ = (SubStr('x'), SubStr('__dict__'))


x = X()
x.x = 1
x.y = 2
print(x.x, x.__dict__, type(X.__dict__['x']).__name__)
