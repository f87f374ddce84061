from array import array
import array as am, pickle, copy, struct, sys
print(am.typecodes, am.ArrayType is array, [array(c).itemsize for c in am.typecodes])
for tc in am.typecodes:
    init = 'abc' if tc == 'u' else [1, 2, 3]
    a = array(tc, init)
    print(tc, a, len(a), a[0], a[-1], a[1:], a[::-1], a.typecode, a.itemsize, list(a), a.tolist(), a.tobytes())
    b = array(tc, a.tobytes()) if tc != 'u' else array('u', a.tounicode())
    print(b == a, a + b, a * 2, 2 * a, a < b, a <= b, a != b, array(tc) < a)
    print(pickle.loads(pickle.dumps(a, 2)) == a, pickle.loads(pickle.dumps(a, 4)) == a, copy.copy(a) == a, copy.deepcopy(a) is not a)
for tc in 'bBuhHiIlLqQfd':
    for v in [-2**70, -2**40, -1, 2**8, 2**16, 2**32, 2**64, 2**70, 1.5, 'x', 'xy', None]:
        try: array(tc, [v]); r = 'ok'
        except Exception as e: r = type(e).__name__ + ': ' + str(e)
        print(tc, repr(v)[:8], r)
a = array('i', [1, 2, 3])
for f in [lambda: a[5], lambda: a.__setitem__(5, 1), lambda: a.pop(7), lambda: array('i').pop(), lambda: a.index(9), lambda: a.remove(9), lambda: array('z'), lambda: array('i', 'abc'), lambda: array('u', [1]), lambda: a + array('d'), lambda: a + [1], lambda: a.__setitem__(slice(0,2), [1]), lambda: a.__setitem__(slice(0,3,2), array('i',[1])), lambda: a.frombytes(b'abc'), lambda: a.fromunicode('x'), lambda: a.tounicode(), lambda: array('u','x').fromunicode(1), lambda: a.fromlist(5), lambda: array(5), lambda: a < 3, lambda: a.extend(array('d')), lambda: a * 'x', lambda: array('b', b'ab'), lambda: hash(a), lambda: a.__delitem__(9), lambda: a.byteswap(1), lambda: array('i', 5), lambda: a['x'], lambda: array('i', array('u', 'a'))]:
    try: print(f())
    except Exception as e: print(type(e).__name__ + ': ' + str(e))
a = array('d', [float(i) for i in range(10)])
a[2] = 7; a[3:5] = array('d', [9, 9, 9]); del a[0]; a[::3] = array('d', [0.5] * len(a[::3])); del a[1::4]
print(a, a.count(9.0), a.index(9.0), a.index(9.0, 3), 9.0 in a, 100 in a)
a.insert(0, -1); a.insert(100, 100); a.insert(-2, 50); a.append(3); a.extend([4, 5]); a.extend(array('d', [6])); print(a, a.pop(), a.pop(0), a)
a.remove(50.0); a.reverse(); print(a)
a += array('d', [1]); a *= 2; print(a, len(a))
b = array('h', [1, 256, -2]); b.byteswap(); print(b, b.tobytes())
c = array('i'); c.fromlist([1, 2]); c.frombytes(struct.pack('ii', 7, 8)); print(c, struct.unpack('4i', c), bytes(c), bytearray(c), b'-'.join([c[:1], b'x']))
try: c.fromlist([3, 'x'])
except TypeError as e: print('TypeError', e, c)
m = memoryview(c); print(m.format, m.itemsize, m.nbytes, m.tolist(), m[1], len(m))
m[0] = 42; print(c)
try: c.append(1)
except BufferError as e: print('BufferError', e)
m.release(); c.append(1); print(c)
u = array('u', 'héllo'); u.fromunicode('!'); print(u, u.tounicode(), u[1], len(u), u.tobytes()[:8])
print(array('u', 'ab').__reduce_ex__(4)[1][1:3], array('i', [1, 2]).__reduce_ex__(2), array('i', [1]).__reduce_ex__(3)[1])
print(am._array_reconstructor(array, 'i', 9, b'\x00\x00\x00\x01\x00\x00\x00\x02'), am._array_reconstructor(array, 'd', 17, struct.pack('>d', 1.5)), am._array_reconstructor(array, 'h', 8, struct.pack('<i', 5)), am._array_reconstructor(array, 'u', 19, 'hi'.encode('utf-16-be')))
for bad in [lambda: am._array_reconstructor(1, 'i', 8, b''), lambda: am._array_reconstructor(int, 'i', 8, b''), lambda: am._array_reconstructor(array, 'z', 8, b''), lambda: am._array_reconstructor(array, 'i', 99, b''), lambda: am._array_reconstructor(array, 'i', 8, 'x')]:
    try: print(bad())
    except Exception as e: print(type(e).__name__, e)
class MyArray(array):
    def double(self): return MyArray(self.typecode, [x * 2 for x in self])
ma = MyArray('i', [1, 2, 3]); ma.tag = 'x'
print(ma, ma.double(), type(ma[1:]).__name__, isinstance(ma, array), len(ma), ma.tobytes()[:4])
mp = pickle.loads(pickle.dumps(ma)); print(type(mp).__name__, mp, mp.tag)
it = iter(array('b', [1, 2, 3])); next(it); print(list(pickle.loads(pickle.dumps(it))), list(it), list(reversed(array('b', [1, 2]))), sorted(array('i', [3, 1, 2])))
import io
f = io.BytesIO(); array('i', range(5)).tofile(f); f.seek(0); g = array('i'); g.fromfile(f, 3); print(g)
try: g.fromfile(f, 5)
except EOFError as e: print('EOFError', e, g)
print(array('f', [0.1])[0], array('d', [float('nan')]) == array('d', [float('nan')]), array('b', [1, 2]) == array('h', [1, 2]), array('i', [1, 2]) < array('i', [1, 3]))
print(type(iter(array('i'))).__name__, array('L', [2**64 - 1]), array('q', [-2**63]), array('Q', [2**64-1]).tolist())
big = array('d', [1.0]) * 100000; big[99999] = 2.0; print(sum(big), len(big))
pa = array('h', [0, 0, 0]); struct.pack_into('<hh', pa, 2, 7, -8); print(pa)
try: struct.pack_into('<q', pa, 0, 1)
except struct.error as e: print('error', e)
