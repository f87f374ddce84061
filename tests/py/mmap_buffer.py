# mmap's buffer protocol: bytes-like consumers read the mapped bytes, a
# memoryview reads and writes them in place and is an export that close()
# and resize() refuse while it is alive.
import gc
import hashlib
import mmap
import os
import re
import struct
import tempfile

d = tempfile.mkdtemp()
path = os.path.join(d, "data")
with open(path, "wb") as f:
    f.write(b"hello mapped world\x01\x02\x03\x04" + b"\x00" * 10)

with open(path, "r+b") as f:
    m = mmap.mmap(f.fileno(), 0)
print(len(m), bytes(m)[:18], bytearray(m)[:5])
print(hashlib.md5(m).hexdigest() == hashlib.md5(m[:]).hexdigest())
print(struct.unpack_from("<4B", m, 18), struct.unpack_from("<I", m, 18))
mt = re.search(rb"m\w+", m)
print(mt.group(0), mt.span())
print(b"world" in bytes(m), m.find(b"world"), b"".join([m[:5], b"!"]))

mv = memoryview(m)
print(len(mv), mv.readonly, mv.format, mv.itemsize, mv.nbytes, mv.obj is m)
print(mv[:5].tobytes(), mv[6], bytes(mv[6:12]), mv[::6].tobytes())
mv[0:5] = b"HELLO"
mv[6] = ord("M")
print(m[:12], m[6])
c = mv.cast("B")
c[-1] = 0x7F
print(m[-1], c.tolist()[-3:])
m[1] = ord("e")
print(mv[:5].tobytes())
sub = mv[6:12]
print(sub.tobytes(), sub.readonly)
for msg, act in (("close", m.close), ("resize", lambda: m.resize(100))):
    try:
        act()
        print(msg, "no error")
    except BufferError as e:
        print(msg, type(e).__name__, e)
print(m.closed)
mv.release()
sub.release()
c.release()
m.flush()
with open(path, "rb") as f:
    print(f.read()[:12])
# written from a file into a map (readinto a view), and a map written to a file
with open(path, "rb") as f:
    with memoryview(m) as w:
        print(f.readinto(w[:4]))
out = os.path.join(d, "out")
with open(out, "wb") as f:
    print(f.write(m))
with open(out, "rb") as f:
    print(f.read() == m[:])
m.resize(40)
print(len(m), len(memoryview(m)))
# a view dropped without release() does not keep the map open
v = memoryview(m)
del v
gc.collect()
m.close()
print(m.closed)
try:
    memoryview(m)
except ValueError as e:
    print("closed:", e)

# read-only and copy-on-write maps
with open(path, "rb") as f:
    r = mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ)
rv = memoryview(r)
print(rv.readonly, rv[:5].tobytes())
try:
    rv[0] = 1
except TypeError as e:
    print("readonly:", e)
rv.release()
r.close()
with open(path, "r+b") as f:
    cw = mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_COPY)
cv = memoryview(cw)
cv[0] = ord("c")
print(cv.readonly, cw[:5])
cv.release()
cw.close()
with open(path, "rb") as f:
    print(f.read(5))

# anonymous map
a = mmap.mmap(-1, 16)
with memoryview(a) as av:
    av[:3] = b"abc"
    print(av.cast("I")[0] == struct.unpack("I", b"abc\x00")[0])
print(a[:4], bytes(a)[:3])
print(b"<" + a[:0] + b">", (b"x" + a)[:4], bytearray(b"y") + a[:2], int.from_bytes(a[:3], "big"))
print(int.from_bytes(a, "little") == int.from_bytes(bytes(a), "little"), a[:3].decode(), str(a[:3], "ascii"))
ba = bytearray(b"z")
ba += a
print(len(ba), ba[:4], b"-".join([a[:1], a]).count(b"-"), b"bc" in bytes(a))
a.close()
for f in (bytes, bytearray, memoryview, lambda x: b"" + x):
    try:
        f(a)
    except (ValueError, TypeError) as e:
        print(type(e).__name__, e)

# struct.pack_into a map, a view of a map and other writable buffers
import array
ba = bytearray(8); struct.pack_into("<HI", ba, 1, 7, 9); print(ba)
mv = memoryview(ba); struct.pack_into("<H", mv[2:], 0, 0x4142); print(ba)
a = array.array("B", bytes(6)); struct.pack_into("2s", a, 4, b"ok"); print(a)
m = mmap.mmap(-1, 8); struct.pack_into("<Q", m, 0, 2**40 + 5); print(m[:])
v = memoryview(m); struct.Struct(">I").pack_into(v, 4, 1); print(m[:]); v.release()
for tgt in (b"xxxx", memoryview(b"xxxx"), memoryview(ba)[::2], memoryview(ba).cast("H")):
    try: struct.pack_into("<H", tgt, 0, 1); print("ok", bytes(tgt) if not isinstance(tgt, bytes) else tgt)
    except (TypeError, struct.error) as e: print(type(e).__name__, e)
try: struct.pack_into("<Q", memoryview(ba)[:4], 0, 1)
except struct.error as e: print(e)

# multiprocessing.shared_memory over memoryview(mmap)
from multiprocessing import shared_memory

sl = shared_memory.ShareableList([1, 2.5, "abc", b"xy", None, True])
print(list(sl), sl[2], sl.format)
sl[0] = 42
sl[2] = "zz"
other_sl = shared_memory.ShareableList(name=sl.shm.name)
print(list(other_sl), other_sl.count(42), other_sl.index("zz"))
other_sl.shm.close()
sl.shm.close()
sl.shm.unlink()

shm = shared_memory.SharedMemory(create=True, size=64)
shm.buf[:5] = b"abcde"
other = shared_memory.SharedMemory(name=shm.name)
print(bytes(other.buf[:5]), other.size >= 64)
other.buf[0] = ord("Z")
print(bytes(shm.buf[:5]))
try:
    pid = os.fork()
except OSError:
    pid = None
if pid == 0:
    child = shared_memory.SharedMemory(name=shm.name)
    child.buf[1:3] = b"YX"
    child.close()
    os._exit(0)
if pid is not None:
    _, status = os.waitpid(pid, 0)
    print(os.waitstatus_to_exitcode(status), bytes(shm.buf[:5]))
other.close()
shm.close()
shm.unlink()
try:
    shared_memory.SharedMemory(name=shm.name)
except FileNotFoundError:
    print("unlinked")
os.remove(out)
os.remove(path)
os.rmdir(d)
