# A bytearray refuses to change size while a memoryview of it is alive and
# not released (BufferError), also through views of views and casts; it may
# be resized again once every view is released, deleted or dropped. And
# memoryview wherever CPython's builtins take a bytes-like object.
import os


def t(label, f):
    try:
        r = f()
    except Exception as e:
        print(label, type(e).__name__, e)
        return
    print(label, repr(r))


ba = bytearray(b'abc')
mm = memoryview(ba)
ops = [('append', lambda: ba.append(1)), ('pop', lambda: ba.pop()), ('clear', lambda: ba.clear()),
       ('extend empty', lambda: ba.extend(b'')), ('extend', lambda: ba.extend(b'x')),
       ('setslice grow', lambda: ba.__setitem__(slice(0, 1), b'xy')),
       ('setslice same', lambda: ba.__setitem__(slice(0, 1), b'y')),
       ('setslice step', lambda: ba.__setitem__(slice(0, 3, 2), b'pq')),
       ('setitem', lambda: ba.__setitem__(1, 66)),
       ('iadd empty', lambda: ba.__iadd__(b'')), ('iadd', lambda: ba.__iadd__(b'z')),
       ('imul 1', lambda: ba.__imul__(1)), ('imul 2', lambda: ba.__imul__(2)), ('imul 0', lambda: ba.__imul__(0)),
       ('delitem', lambda: ba.__delitem__(0)), ('delslice', lambda: ba.__delitem__(slice(0, 2))),
       ('delslice empty', lambda: ba.__delitem__(slice(1, 1))),
       ('delslice step', lambda: ba.__delitem__(slice(None, None, 2))),
       ('insert', lambda: ba.insert(0, 1)), ('remove', lambda: ba.remove(ord('B'))),
       ('remove missing', lambda: ba.remove(99)), ('reverse', lambda: ba.reverse()),
       ('init same', lambda: ba.__init__(b'abc')), ('init', lambda: ba.__init__(b'abcd'))]
for label, f in ops:
    t(label, f)
    print('   ', ba)
del mm
ba.append(ord('!'))
print('after del', ba)

v = memoryview(ba)
v2 = v[1:]
v3 = memoryview(v2).cast('c')
v.release()
t('v2 alive', lambda: ba.append(1))
v2.release()
t('v3 alive', lambda: ba.append(1))
with v3:
    pass
ba.append(ord('?'))
print('all released', ba)


def use_and_drop(b):
    view = memoryview(b)
    return view[0]


print(use_and_drop(ba), bytes(memoryview(ba)[1:3]), memoryview(ba).tobytes())
for i in range(50):
    memoryview(ba)[0] = 65 + i % 26
    ba.append(48 + i % 10)
print('dropped views', ba)
views = [memoryview(ba) for i in range(3)]
t('three alive', lambda: ba.pop())
views.pop().release()
views.pop()
t('one alive', lambda: ba.pop())
views.clear()
print('none alive', ba.pop())


class B(bytearray):
    pass


sub = B(b'sub')
sv = memoryview(sub)
t('subclass', lambda: sub.append(1))
print(type(sv.obj).__name__)
sv.release()
sub.append(33)
print(sub)

# bytes-like arguments
m = memoryview(b'hello world')
t('join', lambda: b'-'.join([m[:5], memoryview(bytearray(b'x')), m[6:]]))
t('join non-contig', lambda: b''.join([m[::2]]))
t('concat', lambda: (b'>' + m[:5], bytearray(b'>') + m[6:]))
t('concat non-contig', lambda: b'' + m[::2])
t('radd', lambda: m + b'')
t('iadd', lambda: bytearray(b'x').__iadd__(m[:2]))
t('extend', lambda: (lambda b: (b.extend(m[:3]), b)[1])(bytearray()))
t('bytes()', lambda: (bytes(m), bytes(m[::-1]), bytearray(m[1:3])))
t('find', lambda: (b'hello'.find(memoryview(b'll')), b'hello'.count(memoryview(b'l'))))
t('startswith', lambda: (b'hello'.startswith(memoryview(b'he')), b'hello'.endswith((memoryview(b'x'), b'lo'))))
t('in', lambda: memoryview(b'ell') in b'hello')
t('replace', lambda: b'hello'.replace(memoryview(b'l'), memoryview(b'L')))
t('split', lambda: (b'a,b,c'.split(memoryview(b',')), b'a,b,c'.rsplit(memoryview(b','), 1)))
t('partition', lambda: (b'a,b'.partition(memoryview(b','))[::2], bytearray(b'a,b').rpartition(memoryview(b','))))
t('strip', lambda: b'xxhixx'.strip(memoryview(b'x')))
t('percent', lambda: b'[%s]' % memoryview(b'mv'))
t('percent b', lambda: b'[%b]' % (memoryview(b'mv'),))
t('int.from_bytes', lambda: (int.from_bytes(memoryview(b'\x01\x00'), 'little'), int.from_bytes(m[:2], 'big')))
t('int()', lambda: (int(memoryview(b'42')), int(memoryview(b' 7 ')), float(memoryview(b'1.5'))))
t('int() base', lambda: int(memoryview(b'ff'), 16))
t('str()', lambda: (str(memoryview(b'abc'), 'ascii'), str(m[6:], encoding='utf-8')))
t('decode released', lambda: (lambda x: (x.release(), str(x, 'ascii')))(memoryview(b'a')))
t('encode arg', lambda: 'x'.encode(memoryview(b'a')))
t('fromhex', lambda: bytes.fromhex(memoryview(b'41')))
t('hex sep', lambda: b'abc'.hex(memoryview(b':')))
t('translate', lambda: b'abc'.translate(None, memoryview(b'b')))
t('list()', lambda: (list(memoryview(b'ab')), tuple(memoryview(b'ab').cast('c'))))
t('sorted', lambda: sorted(memoryview(b'cab')))
t('sum', lambda: sum(memoryview(b'\x01\x02\x03')))

path = '/tmp/tmpy_memoryview_%d.bin' % os.getpid()
with open(path, 'wb') as f:
    print('write', f.write(memoryview(b'0123456789')[2:8]), f.write(memoryview(b'ab').cast('c')))
with open(path, 'rb') as f:
    print('read', f.read())
os.remove(path)
