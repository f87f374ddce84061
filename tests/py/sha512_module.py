# _sha512, CPython's lean SHA-384/512 module that random.py seeds through:
# digests of every length around the block size, incremental updates,
# copies, the attributes, and the errors with CPython's messages.
import _sha512
import array
import copy
import hashlib
import inspect
import pickle
import random


def show(label, f):
    try:
        r = f()
    except Exception as e:
        print(label, '->', type(e).__name__, e)
    else:
        print(label, '->', r)


print(sorted(n for n in dir(_sha512) if not n.startswith('__')), _sha512.SHA384Type is type(_sha512.sha512()))
for f in (_sha512.sha512, _sha512.sha384):
    print(f.__name__, inspect.signature(f), f.__doc__)
for name in ('sha512', 'sha384'):
    h = getattr(_sha512, name)()
    T = type(h)
    print(T, T.__module__, T.__qualname__, h.name, h.digest_size, h.block_size,
          sorted(n for n in vars(T) if not n.startswith('__')))
    for m in ('copy', 'digest', 'hexdigest', 'update'):
        print(' ', m, inspect.signature(getattr(T, m)), getattr(T, m).__doc__)
    ok = True
    data = bytes(range(256)) * 5
    for n in list(range(0, 260)) + [511, 512, 1000, 1279]:
        ref = getattr(hashlib, name)(data[:n]).hexdigest()
        ok &= getattr(_sha512, name)(data[:n]).hexdigest() == ref
        g = getattr(_sha512, name)()
        for i in range(0, n, 7):
            g.update(data[i:min(i + 7, n)])
        ok &= g.hexdigest() == ref and g.digest() == bytes.fromhex(ref)
    print(name, 'digests match hashlib', ok)
    h = getattr(_sha512, name)(b'abc')
    c = h.copy()
    c.update(b'def')
    print(name, h.hexdigest(), c.hexdigest() == getattr(_sha512, name)(b'abcdef').hexdigest(),
          h.hexdigest() == getattr(_sha512, name)(b'abc').hexdigest())
    print(name, getattr(_sha512, name)(string=b'x', usedforsecurity=False).hexdigest()[:16],
          getattr(_sha512, name)(bytearray(b'x')).hexdigest()[:16],
          getattr(_sha512, name)(memoryview(b'xyz')[:1]).hexdigest()[:16],
          getattr(_sha512, name)(array.array('b', [120])).hexdigest()[:16])
big = b'q' * (3 * 1024 * 1024 + 5)
print('big', _sha512.sha512(big).hexdigest() == hashlib.sha512(big).hexdigest())
h = _sha512.sha512(b'abc')
errors = [
    ('str', lambda: _sha512.sha512('abc')),
    ('str kw', lambda: _sha512.sha512(string='abc')),
    ('None', lambda: _sha512.sha512(None)),
    ('int', lambda: _sha512.sha512(5)),
    ('two positional', lambda: _sha512.sha512(b'a', b'b')),
    ('three', lambda: _sha512.sha384(b'', b'', usedforsecurity=True)),
    ('bad keyword', lambda: _sha512.sha512(x=1)),
    ('update str', lambda: h.update('x')),
    ('update none', lambda: h.update()),
    ('update int', lambda: h.update(1)),
    ('update two', lambda: h.update(b'a', b'b')),
    ('digest arg', lambda: h.digest(1)),
    ('new type', lambda: type(h)()),
    ('new sha384', lambda: type(_sha512.sha384())()),
    ('attribute', lambda: h.x),
    ('set name', lambda: setattr(h, 'name', 'x')),
    ('pickle', lambda: pickle.dumps(h)),
    ('copy.copy', lambda: copy.copy(h)),
]
for label, f in errors:
    show(label, f)
try:
    class S(type(h)):
        pass
except TypeError as e:
    print('subclass ->', e)
r = random.Random('a str seed')
print('random str seed', r.random(), random.Random(b'bytes seed').random(), random.Random(bytearray(b'x' * 300)).random())
