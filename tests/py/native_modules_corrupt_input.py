# Corrupt and random input to marshal.loads, zlib, binascii, array slicing
# and unicodedata.normalize: errors, never a crash or a runaway allocation
# (a corrupt container size once made loads fill gigabytes).
import random, marshal, zlib, binascii, array, unicodedata, sys
rnd = random.Random(int(sys.argv[1]) if len(sys.argv) > 1 else 1)
good = [marshal.dumps(v) for v in [(1, 'a', [2.5, None], {'k': b'x'}, frozenset({3})), 2**100, 'é' * 3, [[1], [2]],
                                   compile('def f(a, *b, c):\n    x = [a for a in b]\n    return lambda: x\n', 'c', 'exec')]]
kinds = {}
# CPython preallocates a corrupt container size (a list of 2**31 items takes
# it minutes to free), so only tmpy runs the marshal part.
for i in range(600 if sys.implementation.name != 'cpython' else 0):
    src = rnd.choice(good)
    b = bytearray(src)
    for _ in range(rnd.randint(1, 4)):
        op = rnd.random()
        if op < 0.5 and b:
            b[rnd.randrange(len(b))] = rnd.randrange(256)
        elif op < 0.75 and b:
            del b[rnd.randrange(len(b)):]
        else:
            b.insert(rnd.randrange(len(b) + 1), rnd.randrange(256))
    try:
        marshal.loads(bytes(b))
        k = 'ok'
    except Exception as e:
        k = type(e).__name__
    kinds[k] = kinds.get(k, 0) + 1
z = zlib.compress(b'hello world ' * 100)
for i in range(400):
    b = bytearray(z)
    b[rnd.randrange(len(b))] = rnd.randrange(256)
    for f in (lambda: zlib.decompress(bytes(b)), lambda: zlib.decompressobj().decompress(bytes(b), rnd.randrange(0, 50)), lambda: zlib.decompress(bytes(b), -15)):
        try: f()
        except zlib.error: pass
for i in range(400):
    s = bytes(rnd.randrange(256) for _ in range(rnd.randrange(20)))
    for f in (binascii.a2b_base64, binascii.a2b_uu, binascii.a2b_qp, binascii.a2b_hex, binascii.b2a_qp, lambda x: binascii.a2b_base64(x, strict_mode=True)):
        try: f(s)
        except (binascii.Error, ValueError): pass
a = array.array('i', range(50))
for i in range(600):
    j, k, st = rnd.randrange(-60, 60), rnd.randrange(-60, 60), rnd.choice([1, 2, -1, -3, 7])
    try:
        op = rnd.randrange(5)
        if op == 0: a[j:k:st] = array.array('i', range(len(a[j:k:st])))
        elif op == 1: del a[j:k:st]
        elif op == 2: a[j:k] = array.array('i', range(rnd.randrange(5)))
        elif op == 3: a.insert(j, k)
        else: a.extend(range(rnd.randrange(3)))
    except (ValueError, IndexError): pass
for i in range(600):
    s = ''.join(chr(rnd.choice([rnd.randrange(0x300, 0x370), rnd.randrange(0xac00, 0xac40), rnd.randrange(0x1100, 0x1180), rnd.randrange(0x41, 0x7b), rnd.randrange(0xc0, 0x180)])) for _ in range(rnd.randrange(8)))
    for f in ('NFC', 'NFD', 'NFKC', 'NFKD'):
        unicodedata.normalize(f, s)
print('survived')   # the exceptions differ where tmpy's marshal has no code objects
