# CPython's struct.py over tmpy's C _struct: every format code in native and
# standard modes, alignment, counts, errors with CPython's messages.
import struct
from struct import pack, unpack, calcsize, pack_into, unpack_from, iter_unpack, Struct

for fmt in ["b", "B", "?", "h", "H", "i", "I", "l", "L", "q", "Q", "n", "N", "e", "f", "d", "P", "c", "5s",
            "5p", "3x", "ci", "ic", "bhilqd", "<bhilqd", ">bhilqd", "=bhilqd", "!bhilqd", "0s", "2h3b", "i 2h",
            "@ihq", "<ihq", b"<i"]:
    print(fmt, calcsize(fmt))

vals = [("b", -5), ("B", 250), ("?", 7), ("h", -300), ("H", 60000), ("i", -2 ** 31), ("I", 2 ** 32 - 1),
        ("l", -2 ** 31), ("L", 2 ** 32 - 1), ("q", 2 ** 63 - 1), ("Q", 2 ** 64 - 1), ("n", -1), ("N", 2 ** 63),
        ("e", 1.5), ("e", 65504.0), ("e", 6e-8), ("e", -0.0), ("e", 1e-10), ("f", 3.14), ("d", -2.5e300),
        ("c", b"z"), ("P", 1234)]
for mode in "@<>":
    for code, v in vals:
        if mode != "@" and code in "nNP":
            continue
        b = pack(mode + code, v)
        print(mode + code, b.hex(), unpack(mode + code, b))
print(pack("<5s", b"ab"), pack("<2s", b"abcdef"), pack("<5p", b"abc"), pack("<3p", b"abcdef"))
print(unpack("<5p", b"\x03abcd"), unpack("<3p", b"\x09abcd"[:3]), unpack("<0s", b""))
print(pack("<?", []), pack("<?", "x"), unpack("<??", b"\x00\x02"))
print(pack("ci", b"a", 1).hex(), pack("<ci", b"a", 1).hex(), pack(">3h", 1, 2, 3).hex())
print(pack("<e", float("inf")).hex(), unpack("<e", b"\x00\x7c"), unpack("<e", b"\x01\x00"), unpack(">e", b"\x7b\xff"))
print(pack("<e", 65519.99).hex(), pack("<e", 2049.0).hex(), pack("<e", 2051.0).hex())
print(unpack("<f", pack("<f", 1e-40)), pack("<d", float("nan"))[6:].hex())


class Idx:
    def __index__(self):
        return 42


print(pack("<i", Idx()), pack("<d", 3), pack("<f", True))

bad = [("b", 200), ("B", -1), ("h", 40000), ("<h", 40000), ("H", -1), ("<H", 70000), ("i", 2 ** 31),
       ("<i", 2 ** 31), ("I", -1), ("I", 2 ** 32), ("<I", 2 ** 32), ("<I", -1), ("l", 2 ** 63), ("<l", 2 ** 31),
       ("q", 2 ** 63), ("<q", -2 ** 63 - 1), ("Q", -1), ("<Q", 2 ** 64), ("n", 2 ** 63), ("N", -1), ("c", b"ab"),
       ("c", 1), ("e", 1e6), ("<e", 65520.0), ("<f", 1e300), ("d", "x"), ("i", "x"), ("i", 1.5), ("s", 1),
       ("s", "str"), ("?", None)]
for fmt, v in bad:
    try:
        print(fmt, "ok", pack(fmt, v))
    except (struct.error, OverflowError, TypeError) as e:
        print(fmt, type(e).__name__, e)
for fmt in ["3", "z", "2 i", "i3", "<3P", "<n", "!N", "@@i"]:
    try:
        print(fmt, calcsize(fmt))
    except struct.error as e:
        print(fmt, "error", e)


def attempt(f, *a):
    try:
        print(f.__name__, f(*a))
    except (struct.error, TypeError) as e:
        print(f.__name__, type(e).__name__, e)


attempt(unpack, "i", b"12")
attempt(pack, "ii", 1)
attempt(pack, "i", 1, 2)
attempt(unpack_from, "i", b"1234", 2)
attempt(unpack_from, "<h", b"123456", 4)
attempt(unpack_from, "<h", b"123456", -2)
attempt(unpack_from, "i", b"1234", -5)
attempt(unpack, "<h", bytearray(b"\x01\x02"))
attempt(unpack, "<h", memoryview(b"\x01\x02"))
attempt(unpack, "<h", "ab")
ba = bytearray(8)
attempt(pack_into, "<hh", ba, 2, 1, -1)
print(ba.hex())
attempt(pack_into, "<h", ba, -2, 0x7777)
print(ba.hex())
attempt(pack_into, "i", bytearray(2), 0, 1)
attempt(pack_into, "i", bytearray(8), 6, 1)
attempt(pack_into, "i", bytearray(8), -9, 1)
attempt(pack_into, "i", b"12345678", 0, 1)
attempt(iter_unpack, "i", b"12345")
attempt(iter_unpack, "", b"")
print(list(iter_unpack("<hb", b"\x01\x00\x02\x03\x00\x04")))
it = iter_unpack("<h", b"\x01\x00\x02\x00\x03\x00")
print(it.__length_hint__(), next(it), it.__length_hint__(), list(it), it.__length_hint__())

s = Struct("<2hq")
print(s.format, s.size, s.pack(1, 2, 3).hex(), s.unpack(s.pack(1, 2, 3)), s.unpack_from(b"\0" * 20, offset=4))
print(Struct(b">i").format, Struct(">i").unpack(b"\0\0\1\0"), type(s).__name__)
buf = bytearray(12)
s.pack_into(buf, 0, -1, -2, -3)
print(buf.hex(), list(s.iter_unpack(bytes(buf))))
try:
    Struct(5)
except TypeError as e:
    print("TypeError", e)
print(issubclass(struct.error, Exception), struct.error.__module__, struct.error.__name__)

# an offset whose __index__ allocates: the buffer (young, made just before the
# call) must still be found where a collection moved it
class BusyIndex:
    def __init__(self, n):
        self.n = n

    def __index__(self):
        junk = [str(i) * 3 for i in range(3000)]
        return self.n


data = bytes(range(1, 9)) + bytes([7]) * 4
off = BusyIndex(2)
print(struct.unpack_from("<ii", bytes(bytearray(data)), off))
off = BusyIndex(8)
print(struct.Struct("<h").unpack_from(bytearray(data), off))
target = bytearray(12)
struct.pack_into("<i", target, BusyIndex(4), 0x01020304)
print(target.hex())
