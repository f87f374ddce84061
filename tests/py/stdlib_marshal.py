import marshal, io
vals = [None, True, False, Ellipsis, StopIteration, 0, 1, -1, 2**31 - 1, 2**31, -2**31, -2**31 - 1, 2**40, -2**70, 2**1000 + 12345, 1.5, -0.0, float('inf'), 1e300, 3+4j, -1j,
        'abc', 'a b', '', 'é', '\u20ac\U0001f600', 'x' * 300, 'y z' * 100, '\ud800', b'', b'xy', b'\x00' * 10, (), (1,), (1, 1), (1, (2, 'a')), tuple(range(300)),
        [], [1, 2], {}, {'a': 1, 2: [3]}, set(), {1}, frozenset(), frozenset([1]), {'k': (1.5, b'z', None)}]
for v in vals:
    for ver in range(5):
        d = marshal.dumps(v, ver)
        back = marshal.loads(d)
        ok = back == v or (v != v and back != back) or (isinstance(v, float) and str(v) == str(back))
        if not ok or type(back) is not type(v):
            print('MISMATCH', repr(v)[:40], ver, repr(back)[:40])
    if not isinstance(v, (set, frozenset, dict)) or len(v) <= 1:
        print(repr(v)[:50], marshal.dumps(v, 2)[:60], marshal.dumps(v)[:60] if not isinstance(v, str) or v.isidentifier() or not v.isascii() or True else '')
print(marshal.dumps(0.1, 1), marshal.dumps(1.5, 0), marshal.dumps(1j, 1), marshal.dumps('é', 0))
print(marshal.loads(b'\xdb\x01\x00\x00\x00r\x00\x00\x00\x00'))
l = [1]; t = marshal.loads(marshal.dumps((l, l))); print(t, t[0] is t[1])
for bad in [b'', b'i\x01', b'?', b'r\x00\x00\x00\x00', b's\xff\xff\xff\xff', b'[\x02\x00\x00\x00N', b'{N', b'l\x01\x00\x00\x00\x00\x80']:
    try: print(marshal.loads(bad))
    except Exception as e: print(type(e).__name__, e)
print(marshal.loads(b'\xe9\x01\x00\x00\x00r\x05\x00\x00\x00'), marshal.loads(bytearray(b'N')), marshal.loads(memoryview(b'T')))
class I(int): pass
for bad in [lambda: marshal.dumps(object()), lambda: marshal.dumps(lambda: 0), lambda: marshal.dumps(int), lambda: marshal.loads('s'), lambda: marshal.dumps(I(3)), lambda: marshal.dumps([1], 'x')]:
    try: print(bad())
    except Exception as e: print(type(e).__name__, e)
print(marshal.dumps(bytearray(b'ab')), marshal.dumps(memoryview(b'cd')), marshal.version)
f = io.BytesIO(); marshal.dump([1, 'two'], f); marshal.dump({3: 4.0}, f, 2); f.seek(0)
print(marshal.load(f), marshal.load(f), f.read())
try: marshal.load(io.BytesIO(b'i\x01'))
except Exception as e: print(type(e).__name__, e)
deep = []
for i in range(3000): deep = [deep]
try: marshal.dumps(deep)
except ValueError as e: print('ValueError', e)
# nested lists: the loaded value is the same whatever refs the writer chose
for v in ([1, [2]], {'a': [1, {2: {3}}]}, [[], [[]], ([],)]):
    print(marshal.loads(marshal.dumps(v)) == v, marshal.dumps(v, 2))
# CPython's own output loads (written by python3 3.11)
print(marshal.loads(b'\xdb\x02\x00\x00\x00\xe9\x01\x00\x00\x00[\x01\x00\x00\x00\xe9\x02\x00\x00\x00'))
print(marshal.loads(b'\xa9\x03\xda\x03abcr\x01\x00\x00\x00\xfa\x03a b'))
