# An __index__ that releases a memoryview and resizes its bytearray in the
# middle of an operation on the view: ValueError as CPython, never a read or
# write of the old buffer.
class Idx:
    def __init__(self, act, v=1): self.act, self.v = act, v
    def __index__(self):
        self.act(); return self.v
def t(label, f):
    try: print(label, 'ok', f())
    except Exception as e: print(label, type(e).__name__, e)
def rel():
    m.release(); b.clear(); b.extend(b'z' * 10)
for name, f in [('getitem', lambda: m[Idx(rel, 3)]), ('setitem', lambda: m.__setitem__(Idx(rel, 3), 65)),
                ('setslice', lambda: m.__setitem__(slice(Idx(rel, 0), 3), b'xyz')), ('setslice val', lambda: m.__setitem__(slice(0, 3), bytearray(b'xyz'))),
                ('tolist', lambda: len(m.tolist())), ('cast', lambda: m.cast('B', [Idx(rel, 6000)]) ), ('index', lambda: m.index(Idx(rel, 97)) if hasattr(m, 'index') else 0),
                ('count', lambda: m.count(Idx(rel, 97)) if hasattr(m, 'count') else 0)]:
    b = bytearray(b'abcdef' * 1000)
    m = memoryview(b)
    t(name, f)
    print(' ', len(b), bytes(b[:5]))

b = bytearray(b'abc')
m = memoryview(b)
class Rel:
    def __index__(self):
        m.release()
        return 1
t('getitem after release', lambda: m[Rel()])
