# hashlib's builtin hash modules _md5, _sha1, _sha256, _sha512 and _sha3
# (tmpy: over OpenSSL, as _hashlib): digests of empty, short and long
# inputs, update in pieces, copy(), shake lengths, the types' names and
# sizes, hashlib with _hashlib blocked (it falls back on these), hashlib.md5
# & co. still _hashlib's, and CPython's errors.
import hashlib, _md5, _sha1, _sha256, _sha512, _sha3, _hashlib, sys, array

cons = [_md5.md5, _sha1.sha1, _sha256.sha224, _sha256.sha256, _sha512.sha384, _sha512.sha512,
        _sha3.sha3_224, _sha3.sha3_256, _sha3.sha3_384, _sha3.sha3_512, _sha3.shake_128, _sha3.shake_256]
print(sorted(n for n in dir(_md5) if not n.startswith('__')), sorted(n for n in dir(_sha1) if not n.startswith('__')),
      sorted(n for n in dir(_sha256) if not n.startswith('__')), sorted(n for n in dir(_sha512) if not n.startswith('__')))
print(_sha512.SHA384Type is type(_sha512.sha512()), _md5.MD5Type is type(_md5.md5()),
      _sha256.SHA224Type.__name__, _sha256.SHA256Type.__name__, type(_sha3.keccakopt).__name__,
      type(_sha3.implementation).__name__)
long = bytes(range(256)) * 4099 + b'tail'
inputs = [b'', b'a', b'abc', b'x' * 55, b'x' * 56, b'y' * 63, b'y' * 64, b'z' * 111, b'z' * 112, b'z' * 127,
          b'z' * 128, b'z' * 200, long]
for c in cons:
    h = c()
    t = type(h)
    shake = h.name.startswith('shake')
    dig = (lambda o: o.hexdigest(40)) if shake else (lambda o: o.hexdigest())
    print(c.__name__, t.__module__, t.__name__, t.__qualname__, h.name, h.digest_size, h.block_size,
          isinstance(c, type), dig(h))
    for data in inputs:
        ref = hashlib.new(h.name, data)
        one = c(data)
        assert dig(one) == dig(ref), (h.name, len(data))
        pieces = c()
        k = 0
        for step in (1, 3, 64, 1000, 70000, 10 ** 7):
            pieces.update(data[k:k + step]); k += step
        assert dig(pieces) == dig(ref)
        cp = pieces.copy()
        cp.update(b'more')
        assert dig(pieces) == dig(ref) and dig(cp) == dig(hashlib.new(h.name, data + b'more'))
    print(' ', dig(c(b'abc')), dig(c(long)), dig(c(string=b'abc', usedforsecurity=False)) if not t.__module__ == '_sha3'
          else dig(c(b'abc', usedforsecurity=False)))
    print(' ', dig(c(bytearray(b'abc'))), dig(c(memoryview(b'xabcx')[1:4])), dig(c(array.array('B', b'abc'))))
    if shake:
        s = c(b'abc')
        print(' ', [len(s.digest(n)) for n in (0, 1, 16, 32, 64, 100, 1000)], s.hexdigest(0), s.digest(7),
              s.digest(200) == hashlib.new(h.name, b'abc').digest(200), s.digest(True))
    else:
        print(' ', c(b'abc').digest() == hashlib.new(h.name, b'abc').digest(), len(c().digest()))
    if t.__module__ == '_sha3':
        print(' ', h._capacity_bits, h._rate_bits, h._suffix, h._capacity_bits + h._rate_bits, t.__doc__)

def show(f):
    try:
        r = f()
        print('ok', r if isinstance(r, (str, bytes, int, type(None))) else type(r).__name__)
    except Exception as e:
        print(type(e).__name__, e)

class I:
    def __index__(self): return 3
released = memoryview(b'abc'); released.release()
for c in cons:
    h = c(b'abc')
    shake = h.name.startswith('shake')
    print(c.__name__)
    for f in [lambda: c('abc'), lambda: c(1), lambda: c(None), lambda: c(b'a', b'b'), lambda: c(data=b'a'),
              lambda: c(string=b'a'), lambda: c(foo=1), lambda: c(b'', usedforsecurity=False, string=b''),
              lambda: c(memoryview(b'abcdef')[::2]), lambda: c(released), lambda: c([1, 2]),
              lambda: h.update(), lambda: h.update('x'), lambda: h.update(1), lambda: h.update(b'a', b'b'),
              lambda: h.update(obj=b'a'), lambda: h.update(memoryview(b'abcdef')[::2]), lambda: h.update(released),
              lambda: h.copy(1), lambda: h.digest(1, 2), lambda: h.hexdigest(x=1), lambda: type(h)(),
              lambda: setattr(h, 'name', 'x'), lambda: setattr(h, 'x', 1), lambda: setattr(type(h), 'value', 1),
              lambda: type('X', (type(h),), {})]:
        show(f)
    if shake:
        for n in (-1, -2 ** 70, 2 ** 29, 2 ** 32 - 10, 2 ** 32 + 10, 2 ** 61, 2 ** 64 - 10, 2 ** 64 + 10, 1.0, '3',
                  None, I()):
            show(lambda: h.digest(n))
            show(lambda: h.hexdigest(n))
        show(lambda: h.digest()); show(lambda: h.digest(length=3)); show(lambda: h.hexdigest(3, 4))
    else:
        show(lambda: h.digest(3)); show(lambda: h.hexdigest(length=3))

# an empty view (of a bytearray with no storage yet) is an empty buffer; file_digest reads getbuffer()
import io
print(_md5.md5(io.BytesIO().getbuffer()).hexdigest(), _sha3.sha3_256(memoryview(bytearray())).hexdigest()[:16],
      hashlib.file_digest(io.BytesIO(b''), 'sha1').hexdigest(), hashlib.file_digest(io.BytesIO(b'abc'), _md5.md5).hexdigest(),
      hashlib.sha256(memoryview(bytearray(b'abc'))[3:]).hexdigest()[:16], bytes(memoryview(bytearray())))

# hashlib: its constructors stay _hashlib's; blocked, it falls back on these
print(type(hashlib.md5()).__name__, type(hashlib.sha256()).__name__, type(hashlib.sha3_256()).__name__,
      type(hashlib.shake_128()).__name__, type(hashlib.new('sha512')).__name__, hashlib.md5 is _hashlib.openssl_md5)
print(isinstance(hashlib.shake_256(), _hashlib.HASH), _hashlib.HASHXOF.__mro__[1].__name__)
saved = {k: sys.modules.pop(k) for k in ('hashlib', '_hashlib')}
sys.modules['_hashlib'] = None   # import hashlib as if _hashlib were not built
import hashlib as py_hashlib
sys.modules.update(saved)
print(py_hashlib is not hashlib, py_hashlib._hashlib, hashlib.md5 is _hashlib.openssl_md5)
for name in ['md5', 'sha1', 'sha224', 'sha256', 'sha384', 'sha512', 'sha3_224', 'sha3_256', 'sha3_384',
             'sha3_512', 'shake_128', 'shake_256', 'blake2b', 'blake2s']:
    a = getattr(py_hashlib, name)(b'abc')
    b = py_hashlib.new(name, b'abc')
    c = py_hashlib.new(name.upper(), b'abc') if name[:3] in ('md5', 'sha') and '_' not in name else b
    print(name, type(a).__module__, type(a).__name__, type(b).__name__, type(c).__name__,
          a.hexdigest(8) if name.startswith('shake') else a.hexdigest()[:16])
show(lambda: py_hashlib.new('sha512_256'))
import warnings
with warnings.catch_warnings():
    warnings.simplefilter('ignore', DeprecationWarning)   # its pure-Python pbkdf2_hmac
    print(py_hashlib.pbkdf2_hmac('sha256', b'pw', b'salt', 3, 20).hex())
print(sorted(py_hashlib.algorithms_available))
