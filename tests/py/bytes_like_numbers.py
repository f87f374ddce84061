# int(), float() and int.from_bytes read str, bytes, bytearray and contiguous memoryviews through one bytes view
print(int(b"12"), int(bytearray(b" 34 ")), int(memoryview(b"56")), int("７８"), float(b"1.5"), float(bytearray(b"2e3")), float(memoryview(b"-0.25")))
print(int(b"ff", 16), int(bytearray(b"101"), 2), float("  3.5 "), int(" 42 "))
class S(str): pass
class B(bytes): pass
print(int(S("7")), float(S("7.5")), int(B(b"9")), float(B(b"9.5")))
print(int.from_bytes(b"\x01\x02", "big"), int.from_bytes(bytearray(b"\x01\x02"), "little"), int.from_bytes([1, 2], "big"), int.from_bytes(memoryview(b"\x05"), "big"))
m = memoryview(bytearray(b"abcdef"))
print(bytes(m[1:4]), m.tobytes(), bytearray(b"xy") + m[1:3], b"-".join([m[:2], b"q"]))
print(memoryview(b"").tobytes(), memoryview(bytearray()).tobytes(), len(memoryview(bytearray())))
for bad in ([1], "x1"):
    try:
        print(int(bad))
    except (TypeError, ValueError) as e:
        print(type(e).__name__, e)
try:
    float(memoryview(b"1.5")[::2])
except (TypeError, ValueError) as e:
    print(type(e).__name__, e)
print(int(b"  -0x10  ".strip(), 0), b"abc".split(memoryview(b"b")), bytearray(b"a,b").split(b","))
