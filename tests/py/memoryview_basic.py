# memoryview over bytes and bytearray: attributes, indexing, slicing with
# steps, tobytes/tolist/hex, comparisons, hashing, iteration, release and
# the context manager, writes through a view, and the messages of misuse.
def t(label, f):
    try:
        r = f()
    except Exception as e:
        print(label, type(e).__name__, e)
        return
    if isinstance(r, memoryview):
        r = ('view', r.tolist(), r.format, r.shape, r.strides, r.readonly)
    print(label, repr(r))


m = memoryview(b'abcdef')
print([x for x in dir(m) if not x.startswith('__')])
print(type(m).__name__, memoryview.__module__, type(iter(m)).__name__)
for attr in ('nbytes', 'readonly', 'itemsize', 'format', 'ndim', 'shape', 'strides', 'suboffsets',
             'c_contiguous', 'f_contiguous', 'contiguous'):
    print(attr, getattr(m, attr), getattr(m[::2], attr), getattr(m[4:1:-1], attr))
print(m.obj is not None, m.obj, memoryview(memoryview(b'xyz')[1:]).obj)
t('len', lambda: (len(m), len(m[1:4]), len(m[::-2]), len(m[5:1])))
t('index', lambda: (m[0], m[-1], m[True], m[2,]))
t('index range', lambda: m[6])
t('index neg range', lambda: m[-7])
t('index huge', lambda: m[2 ** 70])
t('index float', lambda: m[1.0])
t('index str', lambda: m['a'])
t('index tuple', lambda: m[0, 0])
t('index ()', lambda: m[()])
t('index ...', lambda: m[...])
t('slice', lambda: m[1:5])
t('slice step', lambda: m[::2])
t('slice neg', lambda: m[::-1])
t('slice neg2', lambda: m[-1:-7:-2])
t('slice of slice', lambda: m[::2][::-1])
t('slice empty', lambda: m[4:1])
t('slices', lambda: m[0:1, 0:1])
t('tobytes', lambda: (m.tobytes(), m[::2].tobytes(), m[::-1].tobytes(), m[3:3].tobytes()))
t('tobytes order', lambda: (m.tobytes('C'), m.tobytes('F'), m.tobytes('A'), m.tobytes(None), m.tobytes(order='C')))
t('tobytes bad order', lambda: m.tobytes('X'))
t('tolist', lambda: (m.tolist(), m[::-3].tolist()))
t('hex', lambda: (m.hex(), m[::2].hex(), m.hex(':'), m.hex('-', 2), m.hex(b'.', -4), memoryview(b'').hex()))
t('iter', lambda: (list(m), list(m[::-2]), [x for x in memoryview(b'')]))
t('contains', lambda: (98 in m, 200 in m, b'a' in memoryview(b'a').cast('c')))
t('bytes', lambda: (bytes(m), bytes(m[::2]), bytearray(m[::-1]), bytes(memoryview(b''))))
t('eq', lambda: (m == b'abcdef', b'abcdef' == m, m == bytearray(b'abcdef'), m == m[:], m == b'abc', m[::2] == b'ace'))
t('ne', lambda: (m != b'abcdef', m != 'abcdef', m == 'abcdef', m == 97, m.__eq__(3)))
t('lt', lambda: m < m)
t('hash', lambda: (hash(m) == hash(b'abcdef'), hash(m[::2]) == hash(b'ace'), hash(m[::-1]) == hash(b'fedcba')))
t('hash writable', lambda: hash(memoryview(bytearray(b'ab'))))
t('hash readonly view of bytearray', lambda: hash(memoryview(bytearray(b'ab')).toreadonly()) == hash(b'ab'))
t('hash cast', lambda: hash(memoryview(b'abcd').cast('h')))
t('hash c', lambda: hash(memoryview(b'ab').cast('c')) == hash(b'ab'))
t('in dict', lambda: {m: 1}[b'abcdef'])
t('not buffer', lambda: memoryview('abc'))
t('not buffer int', lambda: memoryview(3))
t('no args', lambda: memoryview())
t('kw', lambda: memoryview(object=b'ab'))
t('subclass', lambda: type('M', (memoryview,), {}))
t('add', lambda: m + b'')
t('mul', lambda: m * 2)
t('count', lambda: m.count)

# release and the context manager
r = memoryview(bytearray(b'ab'))
r.release()
r.release()
for label, f in [('r[0]', lambda: r[0]), ('len', lambda: len(r)), ('obj', lambda: r.obj),
                 ('nbytes', lambda: r.nbytes), ('format', lambda: r.format), ('tobytes', lambda: r.tobytes()),
                 ('tolist', lambda: r.tolist()), ('hex', lambda: r.hex()), ('cast', lambda: r.cast('B')),
                 ('hash', lambda: hash(r)), ('set', lambda: r.__setitem__(0, 1)),
                 ('enter', lambda: r.__enter__()), ('eq self', lambda: r == r), ('eq other', lambda: r == b'ab'),
                 ('mv of released', lambda: memoryview(r)), ('bytes of released', lambda: bytes(r)),
                 ('repr', lambda: repr(r).startswith('<released memory at 0x'))]:
    t('released ' + label, f)
print(repr(memoryview(b'')).startswith('<memory at 0x'))
with memoryview(b'xyz') as q:
    print(q.tobytes(), q[1])
t('after with', lambda: q[0])
with memoryview(bytearray(b'xyz')) as q2:
    q2[0] = ord('X')
    print(q2.obj)

# writes through a view into a bytearray
ba = bytearray(b'hello world')
w = memoryview(ba)
w[0] = ord('H')
w[-5:] = b'WORLD'
w[1:5:2] = b'EL'
print(ba, w.readonly, w.tobytes())
w2 = w[::2]
w2[0] = 0x21
w2[1:3] = memoryview(b'??')
print(ba)
w[2:6] = w[0:4]   # overlapping source and destination
print(ba)
w[:] = bytes(range(65, 76))
print(ba)
t('set readonly', lambda: memoryview(b'ab').__setitem__(0, 1))
t('set toreadonly', lambda: w.toreadonly().__setitem__(0, 1))
t('del', lambda: w.__delitem__(0))
t('set 256', lambda: w.__setitem__(0, 256))
t('set -1', lambda: w.__setitem__(0, -1))
t('set str', lambda: w.__setitem__(0, 'a'))
t('set float', lambda: w.__setitem__(0, 1.0))
t('set range', lambda: w.__setitem__(99, 1))
t('set slice len', lambda: w.__setitem__(slice(0, 2), b'abc'))
t('set slice int', lambda: w.__setitem__(slice(0, 2), 3))
t('set slice list', lambda: w.__setitem__(slice(0, 2), [1, 2]))
t('set slice fmt', lambda: w.__setitem__(slice(0, 2), memoryview(b'ab').cast('c')))
t('set key', lambda: w.__setitem__('a', 1))
t('set ...', lambda: w.__setitem__(..., 1))


class Ix:
    def __index__(self):
        return 3


w[Ix()] = Ix()
print(ba, w[Ix()])
print(ba == memoryview(ba), memoryview(ba).toreadonly().readonly, memoryview(ba).toreadonly().obj is ba)


class MyBytes(bytes):
    pass


mb = memoryview(MyBytes(b'sub'))
print(type(mb.obj).__name__, mb.tobytes(), mb.readonly)
