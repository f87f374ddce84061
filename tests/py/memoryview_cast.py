# memoryview.cast: every native format memoryview knows, 1-D <-> N-D shapes,
# 0-dim views, items packed and unpacked with their range and type checks,
# multi-dimensional indexing, tolist/tobytes in C and Fortran order, and
# comparisons between views of different formats.
import sys


def t(label, f):
    try:
        r = f()
    except Exception as e:
        print(label, type(e).__name__, e)
        return
    if isinstance(r, memoryview):
        r = ('view', r.tolist(), r.format, r.itemsize, r.shape, r.strides, r.ndim, r.nbytes,
             r.c_contiguous, r.f_contiguous, r.contiguous)
    print(label, repr(r))


raw = bytes(range(1, 17))
m = memoryview(raw)
for fmt in 'BbcHhIiLlQqNnPfd?':
    t('cast ' + fmt, lambda: m.cast(fmt))
    t('cast @' + fmt, lambda: m.cast('@' + fmt).format)
    t('list ' + fmt, lambda: list(m.cast(fmt)))
    t('back ' + fmt, lambda: m.cast(fmt).cast('B').tobytes() == raw)
t('signed', lambda: memoryview(b'\xff\x80\x7f\x00').cast('b').tolist())
t('signed h', lambda: memoryview(b'\xff\xff\x00\x80').cast('h').tolist())
t('float special', lambda: memoryview(b'\x00\x00\x80\x7f\x00\x00\x80\xff').cast('f').tolist())
t('bool', lambda: memoryview(b'\x00\x01\x02\xff').cast('?').tolist())
t('bad fmt', lambda: m.cast('x'))
t('bad fmt <', lambda: m.cast('<h'))
t('bad fmt e', lambda: m.cast('e'))
t('bad fmt 2', lambda: m.cast('hh'))
t('fmt int', lambda: m.cast(1))
t('kw', lambda: m.cast(format='h', shape=[2, 4]))
t('not multiple', lambda: memoryview(b'abc').cast('h'))
t('not multiple shape', lambda: memoryview(b'abc').cast('h', [1]))
t('two non-byte', lambda: m.cast('h').cast('i'))
t('h to ?', lambda: m.cast('h').cast('?'))
t('non contiguous', lambda: m[::2].cast('B'))
t('reversed', lambda: m[::-1].cast('B'))
t('shape 2d', lambda: m.cast('B', [4, 4]))
t('shape 3d', lambda: m.cast('h', (2, 2, 2)))
t('shape product', lambda: m.cast('B', [3, 5]))
t('shape zero', lambda: m.cast('B', [0, 16]))
t('shape neg', lambda: m.cast('B', [-16]))
t('shape str', lambda: m.cast('B', ['a']))
t('shape int', lambda: m.cast('B', 16))
t('shape 65', lambda: memoryview(b'a').cast('B', [1] * 65))
t('shape product overflow', lambda: m.cast('B', [2 ** 62, 2 ** 62]))
t('shape huge', lambda: m.cast('B', [2 ** 70]))
t('shape huge negative', lambda: m.cast('B', [-2 ** 70]))
t('shape bool', lambda: m.cast('B', [True, 16]).shape)
t('shape float', lambda: m.cast('B', [16.0]))
t('shape 64', lambda: memoryview(b'a').cast('B', [1] * 64).ndim)
t('nd to nd', lambda: m.cast('B', [4, 4]).cast('B', [2, 8]))
t('nd to 1d', lambda: m.cast('B', [4, 4]).cast('h'))
t('nd to 1d shape', lambda: m.cast('B', [4, 4]).cast('c', [16]))
t('0-dim', lambda: memoryview(b'abcd').cast('i', []))
t('0-dim bad', lambda: memoryview(b'abcdef').cast('h', []))

z = memoryview(b'abcd').cast('i', [])
t('0d len', lambda: len(z))
t('0d ()', lambda: z[()])
t('0d ...', lambda: z[...])
t('0d 0', lambda: z[0])
t('0d iter', lambda: iter(z))
t('0d tobytes', lambda: z.tobytes())
t('0d tolist', lambda: z.tolist())
t('0d hash', lambda: hash(z))
t('0d eq', lambda: (z == memoryview(b'abcd').cast('i', []), z == memoryview(b'abcd').cast('I', []), z == b'abcd'))
zw = memoryview(bytearray(4)).cast('i', [])
zw[()] = -5
zw[...] = zw[()] * 2
t('0d set', lambda: (zw.tolist(), zw.obj))
t('0d set 0', lambda: zw.__setitem__(0, 1))

g = m.cast('B', [4, 4])
t('2d len', lambda: len(g))
t('2d (1,2)', lambda: g[1, 2])
t('2d (-1,-1)', lambda: g[-1, -1])
t('2d (0,9)', lambda: g[0, 9])
t('2d (9,0)', lambda: g[9, 0])
t('2d int', lambda: g[0])
t('2d ()', lambda: g[()])
t('2d (0,)', lambda: g[0,])
t('2d 3-tuple', lambda: g[0, 0, 0])
t('2d mixed', lambda: g[0, 0:1])
t('2d slices', lambda: g[0:1, 0:1])
t('2d str', lambda: g['a', 0])
t('2d slice', lambda: g[1:3])
t('2d slice step', lambda: g[::-2])
t('2d iter', lambda: iter(g))
t('2d C', lambda: g.tobytes('C'))
t('2d F', lambda: g.tobytes('F'))
t('2d sliced F', lambda: g[::-2].tobytes('F'))
t('2d hex', lambda: g.hex())
t('2d eq', lambda: (g == raw, g == m.cast('B', [4, 4]), g == m.cast('c', [4, 4]), g == m.cast('B', [2, 8])))
t('3d', lambda: m.cast('B', [2, 2, 4])[1, 0, 3])
t('3d list', lambda: m.cast('b', [2, 4, 2])[::-1].tolist())

# packing through writable views
buf = bytearray(16)
mv = memoryview(buf)
for fmt, vals in [('B', [0, 255, 256, -1, True, 1.0, 'a']), ('b', [-128, 127, 128, -129]),
                  ('H', [65535, 65536]), ('h', [-32768, 32768]), ('I', [2 ** 32 - 1, 2 ** 32]),
                  ('i', [-2 ** 31, 2 ** 31]), ('L', [2 ** 64 - 1, 2 ** 64, -1]), ('l', [-2 ** 63, 2 ** 63]),
                  ('Q', [2 ** 64 - 1, 2 ** 64, -1, 2 ** 200]), ('q', [-2 ** 63, 2 ** 63, -2 ** 63 - 1]),
                  ('N', [2 ** 64 - 1]), ('n', [-1]), ('P', [12345]),
                  ('f', [1.5, 3, 1e300, float('nan'), float('-inf'), 2 ** 2000, '1', None]),
                  ('d', [0.1, -0.0, 2 ** 2000, 2 ** 53 + 1, '1']),
                  ('c', [b'x', b'', b'xy', 'x', 120, bytearray(b'q')]), ('?', [0, 1, [], [0], None, 'x'])]:
    view = mv.cast(fmt)
    for v in vals:
        try:
            view[0] = v
            print(fmt, repr(v)[:20], 'ok', view[0])
        except Exception as e:
            print(fmt, repr(v)[:20], type(e).__name__, e)


class Ix:
    def __index__(self):
        return 7


class BadIx:
    def __index__(self):
        raise RuntimeError('no index')


t('index obj', lambda: (mv.cast('i').__setitem__(1, Ix()), mv.cast('i')[1]))
t('index raises', lambda: mv.cast('i').__setitem__(1, BadIx()))
w2 = memoryview(bytearray(8)).cast('B', [2, 4])
t('2d set tuple', lambda: (w2.__setitem__((1, 1), 5), w2.tolist()))
t('2d set int', lambda: w2.__setitem__(0, 1))
t('2d set slice', lambda: w2.__setitem__(slice(0, 1), b'abcd'))
t('2d set slices', lambda: w2.__setitem__((slice(0, 1), slice(0, 1)), b'a'))
t('2d set mixed', lambda: w2.__setitem__((0, slice(0, 1)), b'a'))
wi = memoryview(bytearray(8)).cast('i')
t('slice same fmt', lambda: (wi.__setitem__(slice(0, 1), memoryview(b'abcd').cast('i')), wi.tolist()))
t('slice @fmt', lambda: (wi.__setitem__(slice(1, 2), memoryview(b'dcba').cast('@i')), wi.tolist()))
t('slice other fmt', lambda: wi.__setitem__(slice(0, 1), memoryview(b'abcd').cast('I')))
t('slice bytes into i', lambda: wi.__setitem__(slice(0, 1), b'abcd'))
t('slice 2d src', lambda: memoryview(bytearray(4)).__setitem__(slice(0, 4), memoryview(b'abcd').cast('B', [2, 2])))

# comparisons across formats compare the unpacked values
t('h vs B', lambda: memoryview(b'\x01\x00').cast('h') == memoryview(b'\x01').cast('B'))
t('f vs i', lambda: memoryview(b'\x00\x00\x80\x3f').cast('f') == memoryview(b'\x01\x00\x00\x00').cast('i'))
t('f vs d', lambda: memoryview(b'\x00\x00\x80\x3f').cast('f') == memoryview(b'\x00' * 6 + b'\xf0\x3f').cast('d'))
t('nan', lambda: memoryview(b'\x00\x00\xc0\x7f').cast('f') == memoryview(b'\x00\x00\xc0\x7f').cast('f'))
nan = memoryview(b'\x00\x00\xc0\x7f').cast('f')
t('nan self', lambda: nan == nan)
t('c vs B', lambda: memoryview(b'a') == memoryview(b'a').cast('c'))
t('c vs c', lambda: memoryview(b'a').cast('c') == memoryview(b'a').cast('c'))
t('? vs B', lambda: memoryview(b'\x01').cast('?') == memoryview(b'\x01'))
t('Q vs q', lambda: memoryview(b'\xff' * 8).cast('Q') == memoryview(b'\xff' * 8).cast('q'))
t('B vs b', lambda: memoryview(b'\x80') == memoryview(b'\x80').cast('b'))
t('shape differs', lambda: memoryview(b'ab') == memoryview(b'abc'))

# slices far out of range, and a slice assigned from a reversed view of itself
t('huge slice', lambda: (m[2 ** 62:].tolist(), m[::2 ** 62].tolist(), m[-2 ** 70:2 ** 70:5].tolist()))
sb = bytearray(b'xyz')
sv = memoryview(sb)
sv[:] = sv[::-1]
t('reversed self', lambda: (sb, memoryview(sv).cast('c')[0]))
