# json over the C _json (vm/modules/jsonmodule.c): round trips, every
# decoder error message and position, hooks, deep nesting, unicode, floats,
# subclasses, default=, circular references, and the _json functions called
# directly. Printed output must match CPython's (which also uses its _json).
import json, _json, math, sys, decimal
from collections import OrderedDict

print(json.scanner.make_scanner is _json.make_scanner, json.decoder.scanstring is _json.scanstring,
      json.encoder.c_make_encoder is _json.make_encoder, _json.make_scanner.__module__, _json.scanstring.__module__)

def show(label, f, *args, **kw):
    try:
        r = f(*args, **kw)
    except json.JSONDecodeError as e:
        print(label, 'JSONDecodeError', e.msg, e.pos, e.lineno, e.colno)
    except (ValueError, TypeError, RecursionError, ZeroDivisionError, StopIteration, AttributeError,
            OverflowError) as e:
        print(label, type(e).__name__, e.args)
    else:
        print(label, repr(r))

# ---- round trips
values = [None, True, False, 0, -1, 7, 2 ** 62, -2 ** 63, 10 ** 40, -(10 ** 30), 0.0, -0.0, 1.5, 0.1, 1e16,
          1e-7, 123456.789, 1e308, 5e-324, '', 'abc', 'quote " back \\ slash /', '\x00\x01\x1f\x7f\x80',
          '\b\f\n\r\t', 'caf\u00e9', '\u20ac', '\U0001f600 smile', '\ud800 lone', 'lo \udfff', [], {}, [[]], {'': {}},
          [1, [2, [3, [4]]]], {'a': 1, 'b': [True, None], 'c': {'d': 'e'}}, list(range(50)),
          {str(i): i * 1.5 for i in range(30)}, ('tuple', 1)]
for v in values:
    for ea in (True, False):
        s = json.dumps(v, ensure_ascii=ea)
        back = json.loads(s)
        print(ea, ascii(s), back == (list(v) if isinstance(v, tuple) else v) or v != v)
for sep in [(',', ':'), (', ', ': '), (' ,', ' : ')]:
    print(json.dumps({'a': [1, 2], 'b': {'c': None}}, separators=sep))
print(json.dumps({'b': 1, 'a': 2, 'c': {'z': 1, 'y': 2}}, sort_keys=True))
print(json.dumps({3: 'x', 1.5: 'y', True: 't', False: 'f', None: 'n', 'k': 0, 10 ** 20: 'big'}))
print(json.dumps({2: 'a', 1: 'b'}, sort_keys=True))
show('unsortable', json.dumps, {'a': 1, 1: 'a'}, sort_keys=True)
show('badkey', json.dumps, {(1, 2): 3})
print(json.dumps({(1, 2): 3, 'ok': 4, object(): 5}, skipkeys=True))
print(json.dumps({(1, 2): 3}, skipkeys=True))

# ---- floats
for f in [float('nan'), float('inf'), -float('inf')]:
    print(json.dumps(f), json.dumps([f]), json.dumps({f: 1}))
    show('allow_nan', json.dumps, [f], allow_nan=False)
    show('allow_nan key', json.dumps, {f: 1}, allow_nan=False)
print(json.loads('[NaN, Infinity, -Infinity]'))
print(json.loads('[-0, -0.0, 1E5, 1e-5, 2.5e+3, 0.5, 10]'))
print(json.loads('1e400'), json.loads('-1e400'), json.loads('1e-400'))
print(json.loads('[1.5, 2]', parse_float=decimal.Decimal), json.loads('[7, 8.0]', parse_int=float))
print(json.loads('[NaN, -Infinity]', parse_constant=lambda s: 'const:' + s))
print(json.loads('12345678901234567890123456789012345678901234567890'))
print(json.loads('-123456789012345678'), json.loads('999999999999999999'), json.loads('-9223372036854775808'))
print(json.loads('[0.30000000000000004, 1.7976931348623157e308, 4.9e-324]'))

# ---- subclasses
class MyInt(int):
    def __repr__(self): return 'MyInt!'
    __str__ = __repr__
class MyFloat(float):
    def __repr__(self): return 'MyFloat!'
    __str__ = __repr__
class MyStr(str):
    def __str__(self): return 'MyStr!'
class MyList(list):
    def __iter__(self): return iter([99])
class MyDict(dict):
    def items(self): return [('x', 'from items()')]
print(json.dumps([MyInt(5), MyFloat(2.5), MyStr('s\u00e9'), MyList([1, 2]), MyDict(a=1), (MyInt(1),)]))
print(json.dumps({MyInt(3): 1, MyFloat(0.5): 2, MyStr('k'): 3}))
print(json.dumps(OrderedDict([('z', 1), ('a', 2)])), json.dumps(OrderedDict([('z', 1), ('a', 2)]), sort_keys=True))
print(json.dumps(MyDict(), sort_keys=True), json.dumps(MyList()))
import enum
class Color(enum.IntEnum):
    RED = 1
class Ratio(float, enum.Enum):
    HALF = 0.5
print(json.dumps([Color.RED, Ratio.HALF, {Color.RED: 'r'}]))

# ---- default=, circular references
class Point:
    def __init__(self, x, y): self.x, self.y = x, y
print(json.dumps([Point(1, 2), {'p': Point(3, Point(4, 5))}], default=lambda o: {'x': o.x, 'y': o.y}))
show('not serializable', json.dumps, [1, {2, 3}])
show('default raises', json.dumps, [Point(1, 2)], default=lambda o: 1 / 0)
a = []; a.append(a)
show('circular list', json.dumps, a)
d = {}; d['self'] = d
show('circular dict', json.dumps, d)
show('circular default', json.dumps, [Point(0, 0)], default=lambda o: [o])
show('no check', json.dumps, a, check_circular=False)
shared = [1]
print(json.dumps([shared, shared, {'a': shared}]))
show('endless default', json.dumps, Point(0, 0), default=lambda o: Point(0, 0), check_circular=False)

class Enc(json.JSONEncoder):
    def default(self, o):
        if isinstance(o, complex):
            return [o.real, o.imag]
        return super().default(o)
print(Enc().encode({'z': 1 + 2j}), Enc(separators=(',', ':')).encode([3j]))
show('Enc error', Enc().encode, {'s': {1}})

# ---- decoder errors: messages and positions
bad = ['', ' ', '[', '[42', '[42,', '["', '["spam', '["spam"', '["spam",', '{', '{"', '{"spam', '{"spam"',
       '{"spam":', '{"spam":42', '{"spam":42,', '"', '"spam', '[,', '{"spam":[}', '[42:', '[42 "spam"', '[42,]',
       '{"spam":[42}', '["]', '["spam":', '["spam",]', '{:', '{,', '{42', '[{]', '{"spam",', '{"spam"}',
       '[{"spam"]', '{"spam":}', '[{"spam":]', '{"spam":42 "ham"', '[{"spam":42]', '{"spam":42,}', '[]]',
       '{}x', '1 2', 'nul', 'tru', 'fals', 'NaNa', '-', '-x', '01', '1.', '1e', '1e+', '.5', '+1', 'Infinit',
       '-Infinit', '"\\"', '"\\x"', '"\\u"', '"\\u0"', '"\\u01"', '"\\u012"', '"\\uz012"', '"\\u0z12"',
       '"\\u01z2"', '"\\u012z"', '"\\ud834\\"', '"\\ud834\\u"', '"\\ud834\\ud"', '"\\ud834\\udd"',
       '"\\ud834\\udd1"', '"\\ud834\\uzzzz"', '"\\ud834\\x0123"', '"\\ud834\\u0x23"', '"\\x0123"',
       '"a\tb"', '"\x00"', '"\x1f"', '["\u00e9\u00e9", 1 2]', '{"\u20ac\U0001f600": x}',
       '["\U0001f600\U0001f600" "x"]', '\u00e9', '[1, \u00e9]', '"\u00e9\\q"', '"\U0001f600\\u12"',
       '["abc\u00e9', '[1]\n\n  x', '{"a"\n:\n1\n,\n}', '"\\ud834\\udd1e', '\ufeff[]']
for s in bad:
    show('loads %r' % s, json.loads, s)
print(ascii(json.loads('"\\ud834\\udd1e \\ud834 \\udd1e \\ud834\\u0041 \\u00e9\\u20AC\\/\\b\\f\\n\\r\\t\\"\\\\"')))
print(json.loads('"a\tb\x00"', strict=False), json.loads('{"k\x1f": "\nv"}', strict=False))
print(json.loads(' \t\n\r[ 1 ,\n 2 ] \n'), json.loads('{ "a" : { } , "b" : [ ] }'))

# ---- hooks
print(json.loads('{"a": {"b": 1}, "c": [{"d": 2}]}', object_hook=lambda d: sorted(d.items())))
print(json.loads('{"a": 1, "b": {"c": 2}, "a": 3}', object_pairs_hook=lambda p: p))
print(json.loads('{"z": 1, "y": 2}', object_pairs_hook=OrderedDict, object_hook=dict))
print(json.loads('{}', object_pairs_hook=tuple), json.loads('[{}]', object_hook=len))
show('hook raises', json.loads, '{"a": 1}', object_hook=lambda d: 1 / 0)
show('parse_int raises', json.loads, '[1]', parse_int=lambda s: int('x'))
# the memo: one key object for each distinct key in a document
objs = json.loads('[{"key": 1}, {"key": 2}, {"k\u00e9y": 3}, {"k\u00e9y": 4}]')
print(list(objs[0])[0] is list(objs[1])[0], list(objs[2])[0] is list(objs[3])[0])

# ---- deep nesting
deep = 500
nested = []
for _ in range(deep - 1):
    nested = [nested]
print(json.dumps(json.loads('[' * deep + ']' * deep)) == json.dumps(nested) == '[' * deep + ']' * deep)
print(len(json.dumps(json.loads('{"a":' * deep + '1' + '}' * deep))))
show('deep loads list', json.loads, '[' * 100000 + '1' + ']' * 100000)
show('deep loads dict', json.loads, '{"a":' * 100000 + '1' + '}' * 100000)
x = []
for _ in range(100000):
    x = [x]
show('deep dumps', json.dumps, x)

# ---- unicode
u = ''.join(chr(c) for c in list(range(0, 0x300, 7)) + [0x7ff, 0x800, 0xfffd, 0xffff, 0x10000, 0x10ffff, 0xd83d, 0xde00])
for ea in (True, False):
    s = json.dumps(u, ensure_ascii=ea)
    print(len(s), s == json.encoder.py_encode_basestring_ascii(u) if ea else s == json.encoder.py_encode_basestring(u),
          json.loads(s) == u)
print(json.loads('["\u00e9\U0001f600", {"\u20ac": "\u00e9"}]'), json.loads('"\\ud83d\\ude00"') == '\U0001f600')

# ---- _json called directly
sc = _json.scanstring
show('scanstring', sc, '"abc\u00e9" tail', 1)
show('scanstring mid', sc, 'xx"\u00e9\U0001f600\\n"yy', 3, True)
show('scanstring end', sc, '"abc', 4)
show('scanstring oob', sc, '"abc"', 6)
show('scanstring neg', sc, '"abc"', -1)
show('scanstring type', sc, b'"abc"', 1)
show('scanstring nonstrict', sc, '"a\nb"', 1, False)
show('scanstring strict', sc, '"a\nb"', 1, True)
show('ascii', _json.encode_basestring_ascii, 'a"\\\u00e9\U0001f600\x00\x7f')
show('unicode', _json.encode_basestring, 'a"\\\u00e9\U0001f600\x00\x7f')
show('ascii type', _json.encode_basestring_ascii, 5)
show('ascii sub', _json.encode_basestring_ascii, MyStr('x'))
dec = json.JSONDecoder()
scan = _json.make_scanner(dec)
show('scan', scan, ' [1, "\u00e9", {"a": 2}] x', 1)
show('scan mid', scan, '\u00e9\u00e9 123 ', 3)
show('scan end', scan, '[1]', 3)
show('scan past', scan, '[1]', 10)
show('scan neg', scan, '[1]', -1)
show('scan nothing', scan, '[1] x', 4)
show('scan type', scan, b'[1]', 0)
show('scan ctx', _json.make_scanner, 1)
class BadBool:
    def __bool__(self): 1 / 0
show('bad strict', lambda: json.JSONDecoder(strict=BadBool()).decode('""'))
me = _json.make_encoder
show('enc markers', me, 1, None, None, None, ': ', ', ', False, False, False)
show('enc sep', me, None, None, None, None, 1, ', ', False, False, False)
show('enc args', me, (True, False), b'x', None)
e1 = me(None, str, lambda s: None, None, ': ', ', ', False, False, False)
show('bad encoder', e1, 'spam', 4)
show('bad encoder key', e1, {'spam': 42}, 4)
e2 = me({}, str, lambda s: '<' + s + '>', None, '=', ';', True, True, True)
show('custom encoder', e2, {'b': ['x', 1.5, None], 'a': MyStr('y'), 2: float('nan'), (1,): 0}, 0)
e2 = me({}, str, lambda s: '<' + s + '>', None, '=', ';', False, True, True)
show('custom encoder', e2, {'b': ['x', 1.5, None], 'a': MyStr('y'), 2: float('nan'), (1,): 0, 1e300: 1, 7: 7, None: 0}, 0)
e3 = me({}, repr, _json.encode_basestring, None, ':', ',', False, False, False)
show('fast encoder', e3, ['\u00e9', {'\U0001f600': 1}, Point], 0)
for name in ['skipkeys', 'ensure_ascii', 'check_circular', 'allow_nan', 'sort_keys']:
    show('bad ' + name, json.JSONEncoder(**{name: BadBool()}).encode, {'a': 1})
show('scanstring overflow', sc, b'xxx', sys.maxsize + 1)
show('scan overflow', scan, b'xxx', sys.maxsize + 1)
# the settings as read-only members
print(scan.strict, scan.object_hook, scan.object_pairs_hook is None, scan.parse_float is float, scan.parse_int is int,
      scan.parse_constant == dec.parse_constant)
print(e2.markers, e2.default is str, e2.indent, e2.key_separator, e2.item_separator, e2.sort_keys, e2.skipkeys,
      e3.encoder is _json.encode_basestring)
show('readonly', setattr, scan, 'strict', False)
# ints past sys.get_int_max_str_digits() both ways
show('dumps huge int', json.dumps, 10 ** 5000)
show('dumps huge key', json.dumps, {10 ** 5000: 1})
show('loads huge int', json.loads, '1' * 5000)
print(len(str(json.loads('[' + '9' * 4300 + ']')[0])))


# A scanner called with a string made in the call (young: a collection in the
# call may move it) and an index past non-ASCII characters.
def young_string_scan():
    import json
    sc = json.scanner.c_make_scanner(json.JSONDecoder()) if json.scanner.c_make_scanner else None
    if sc is None:
        print("no C scanner")
        return
    for k in range(3):
        print(sc("\u00e9" * (3 + k) + '  ["ab", 1]', 5 + k))


young_string_scan()
