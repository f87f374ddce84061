# A bytearray consumed from the front (del b[:n], b[:n] = b''), as asyncio's
# and protocol parsers' buffers are, then used every other way: the data
# must be the bytes left, whatever the deletions did to where they start.
import array
import copy
import io
import os
import pickle
import struct
import tempfile


def show(tag, b):
    print(tag, len(b), bytes(b[:12]), bytes(b[-12:]), hash(bytes(b)) == hash(bytes(list(b))))


# a FIFO: appends at the end, deletions at the front, checked against a model
b = bytearray()
model = b""
for i in range(3000):
    chunk = bytes((i * 7 + k) % 256 for k in range(i % 97 + 1))
    b += chunk
    model += chunk
    n = (i * 13) % 120
    del b[:n]
    model = model[n:]
    if i % 500 == 0:
        assert b == model, i
assert b == model
show("fifo", b)

# slice assignment of an empty value at the front is a deletion too
b = bytearray(range(200))
b[:50] = b""
b[0:10] = bytearray()
show("assign-empty", b)

# every method after a prefix deletion
b = bytearray(b"0123456789" * 20)
del b[:15]
print(b.find(b"789"), b.index(b"0"), b.count(b"5"), b.startswith(b"56789"), b.endswith(b"789"))
print(b[:5], b[-3:], b[3], b[-1], b[::37])
b.append(ord("!"))
b.insert(0, ord("<"))
b.insert(3, ord("^"))
b.extend(b"EXT")
b[5:8] = b"abcdefgh"
b[0] = ord("[")
del b[2:4]
del b[::11]
b.reverse()
show("methods", b)
print(b.pop(), b.pop(0), b.remove(ord("5")), len(b))
b *= 3
show("imul", b)
c = b + b"tail"
show("add", c)
print(b.upper()[:10], b.split(b"5")[:3], b.hex()[:20], b.decode("latin-1")[:10])

# growth after deletions: compaction and new storage both keep the data
b = bytearray(b"x" * 1000)
for step in range(50):
    del b[:19]
    b += bytes([step]) * 19
    b[len(b) // 2] = step
show("steady", b)

# a big buffer drained from the front (storage shrinks as it empties)
b = bytearray(bytes(range(256)) * 4000)
orig = bytes(b)
taken = bytearray()
while b:
    taken += b[:3001]
    del b[:3001]
    if len(b) % 7 == 0:
        b += b"z"
        del b[-1:]
print("drained", taken == orig, len(b))
b += b"again"
print(b)

# memoryviews: a live export refuses the deletion; a released one does not
b = bytearray(b"abcdefghij")
del b[:2]
m = memoryview(b)
try:
    del b[:3]
except BufferError as e:
    print("BufferError", e)
print(bytes(m), m[0], m[-1])
m[0] = ord("C")
m[1:3] = b"DE"
m.release()
del b[:1]
print(b)
m = memoryview(b)[2:5]
print(bytes(m), m.tobytes())
m.release()

# writes from other parts of the library into a bytearray whose start moved
b = bytearray(b"_" * 40)
del b[:8]
struct.pack_into("<IH", b, 4, 0xdeadbeef, 7)
print(struct.unpack_from("<IH", b, 4), b[:12])
bio = io.BytesIO(b"readinto-data")
print(bio.readinto(b), b[:16])
with tempfile.TemporaryFile() as f:
    f.write(b"from a file, into a moved bytearray")
    f.seek(0)
    print(f.readinto(b), b)
    os.lseek(f.fileno(), 0, os.SEEK_SET)
    raw = io.FileIO(f.fileno(), closefd=False)
    b2 = bytearray(b"#" * 30)
    del b2[:10]
    print(raw.readinto(b2), b2)

# copies, pickling, re-initialisation, comparisons and conversions
b = bytearray(b"hello world, hello bytes")
del b[:6]
print(copy.copy(b), copy.deepcopy(b), pickle.loads(pickle.dumps(b)), bytes(b), bytearray(b))
print(b == b"world, hello bytes", b < b"x", b > b"a", list(b[:3]), array.array("B", b)[:4])
b.__init__(b"fresh")
print(b)
b = bytearray(b"abcdef")
del b[:3]
b.__init__(10)
print(b)
b = bytearray(b"abcdef")
del b[:6]
print(b, len(b))
b += b"xyz"
print(b)
b.clear()
b += b"after clear"
del b[:6]
print(b)
print(int.from_bytes(bytearray(b"\x00\x01\x02\x03")[1:], "big"), float(bytearray(b"  1.5")[2:]))
x = bytearray(b"--12345")
del x[:2]
print(int(x), x.isdigit(), x.zfill(8))
