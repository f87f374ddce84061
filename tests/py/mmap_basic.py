# The mmap module: file and anonymous maps, reading, writing, seeking,
# find/rfind, slices, resize, move, flush, errors (CPython's messages).
import mmap
import os
import tempfile


def err(f, *args, **kw):
    try:
        r = f(*args, **kw)
    except Exception as e:
        return "%s: %s" % (type(e).__name__, e)
    return "ok %r" % (r,)


print(mmap.ACCESS_DEFAULT, mmap.ACCESS_READ, mmap.ACCESS_WRITE, mmap.ACCESS_COPY)
print(mmap.PAGESIZE == mmap.ALLOCATIONGRANULARITY, mmap.PAGESIZE > 0, mmap.error is OSError)
print(mmap.MAP_SHARED, mmap.MAP_PRIVATE, mmap.PROT_READ, mmap.PROT_WRITE, mmap.MADV_DONTNEED)

with tempfile.TemporaryDirectory() as d:
    path = os.path.join(d, "data")
    with open(path, "wb") as f:
        f.write(b"hello world\nsecond line\nthird")
    with open(path, "r+b") as f:
        m = mmap.mmap(f.fileno(), 0)
        print(len(m), m.size(), m.tell(), m.closed)
        print(m.readline(), m.tell())
        print(m.read(6), m.read_byte(), m.tell())
        print(m.read(), m.read(), m.tell())
        m.seek(0)
        print(m[0], m[-1], m[0:5], m[::-1][:5], m[1:10:3], m[5:2])
        print(m.find(b"line"), m.find(b"line", 20), m.rfind(b"l"), m.find(b"zz"), m.rfind(b"o", 0, 5))
        m.seek(6)
        print(m.find(b"hello"), m.find(b"world"))
        m[0] = ord("H")
        m[6:11] = b"WORLD"
        m.seek(0, 2)
        print(m.tell(), err(m.write, b"x"), err(m.write_byte, 65), err(m.read_byte))
        m.seek(-5, 2)
        print(m.write(b"THIRD"), m.tell())
        m.seek(0)
        m.write_byte(ord("h"))
        print(err(m.seek, 100), err(m.seek, -1), err(m.seek, 0, 5), err(m.seek, -1, 1))
        print(err(m.__getitem__, 100), err(m.__getitem__, "a"), err(m.__setitem__, 0, 256))
        print(err(m.__setitem__, 0, "a"), err(m.__setitem__, slice(0, 2), b"abc"), err(m.__delitem__, 0))
        print(err(m.__setitem__, slice(0, 2), "ab"), err(m.__setitem__, -100, 1))
        m.move(0, 6, 5)
        print(m[:12], err(m.move, 0, 25, 10))
        print(m.flush(), err(m.flush, 0, 1000), m.flush(0, len(m)))
        print(list(m[:3]), [b for b in m][:3], b"W" in m[:])
        m.resize(40)
        print(len(m), m.size(), os.path.getsize(path), m[-12:])
        m.resize(10)
        print(len(m), m.size(), m[:], m.tell())
        print(repr(m))
        m.close()
        m.close()
        print(m.closed, repr(m))
        for name, args in [("read", ()), ("read_byte", ()), ("readline", ()), ("write", (b"x",)), ("seek", (0,)),
                           ("tell", ()), ("size", ()), ("find", (b"x",)), ("flush", ()), ("resize", (5,)),
                           ("__len__", ()), ("__getitem__", (0,)), ("__enter__", ())]:
            print(name, err(getattr(m, name), *args))
    with open(path, "rb") as f:
        print(f.read())
        with mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ) as r:
            print(repr(r), r[:5])
            print(err(r.write, b"x"), err(r.__setitem__, 0, 1), err(r.resize, 3), err(r.move, 0, 1, 1))
            print(err(r.write_byte, 1), err(r.__setitem__, slice(0, 1), b"x"), r.flush())
        print(r.closed)
        c = mmap.mmap(f.fileno(), 5, access=mmap.ACCESS_COPY)
        c[0:5] = b"COPY!"
        print(c[:], err(c.resize, 3))
        c.close()
        print(f.read(5) if not f.seek(0) else None)
        print(err(mmap.mmap, f.fileno(), 1000, access=mmap.ACCESS_READ))
        print(err(mmap.mmap, f.fileno(), 0, offset=mmap.PAGESIZE, access=mmap.ACCESS_READ))
        print(err(mmap.mmap, f.fileno(), -1))
        print(err(mmap.mmap, f.fileno(), 0, offset=-1))
        print(err(mmap.mmap, f.fileno(), 0, access=7))
        print(err(mmap.mmap, f.fileno(), 0, flags=mmap.MAP_PRIVATE, access=mmap.ACCESS_READ))
        pr = mmap.mmap(f.fileno(), 0, prot=mmap.PROT_READ)
        print(repr(pr))
        pr.close()
    empty = os.path.join(d, "empty")
    open(empty, "wb").close()
    with open(empty, "rb") as f:
        print(err(mmap.mmap, f.fileno(), 0))
    big = os.path.join(d, "big")
    with open(big, "wb") as f:
        f.write(b"a" * mmap.PAGESIZE + b"b" * 100)
    with open(big, "r+b") as f:
        m = mmap.mmap(f.fileno(), 0, offset=mmap.PAGESIZE)
        print(len(m), m[:3], repr(m).replace(str(mmap.PAGESIZE), "PAGESIZE"))
        m.close()

a = mmap.mmap(-1, 100)
print(len(a), err(a.size), a[:4], repr(a))
a.write(b"anonymous")
a.seek(0)
print(a.readline(), a.tell())
a.resize(200)
print(len(a), a[:9], a[150])
a.madvise(mmap.MADV_NORMAL)
a.madvise(mmap.MADV_DONTNEED, 0, mmap.PAGESIZE)
print(err(a.madvise, mmap.MADV_NORMAL, 1000), err(a.madvise, mmap.MADV_NORMAL, 0, -1))


class Sub(mmap.mmap):
    pass


s = Sub(-1, 10)
s[0:3] = b"sub"
print(type(s).__name__, isinstance(s, mmap.mmap), s[:3], len(s))
s.close()
print(err(mmap.mmap, -1, 0))


# Indices whose __index__ allocates (a collection may move the map and the key
# mid-call: move mode runs these with every young object moved).
class I:
    def __init__(self, v): self.v = v
    def __index__(self):
        junk = [[i] * 3 for i in range(2000)]
        return self.v
m = mmap.mmap(-1, 8)
m[:] = b"hello wo"
print(m[I(1)], m[I(1):I(5)], m[I(0):I(8):I(2)])
m[I(2)] = I(76)
m[I(0):I(2)] = b"HE"
print(m[:], m.find(b"o", I(5)), m.rfind(b"l", I(0), I(8)), m.find(b"o", I(0)))
