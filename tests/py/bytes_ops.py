b = b"Hello, World"
print(b, len(b), b[0], b[-1], b[:5], b.upper(), b.lower(), b.split(b", "), b.replace(b"l", b"L"))
print(b.find(b"World"), b.startswith(b"He"), b.endswith(b"d"), b.count(b"l"), b"-".join([b"a", b"b"]))
print(b.decode(), b.hex(), bytes.fromhex("414243"), list(b"abc"), bytes([104, 105]), b"abc" < b"abd")
print(b"\x00\xff\n\t'", repr(b'"'), b"a" * 3, b"ab" + b"cd", b"x" in b"xyz", 120 in b"xyz")
ba = bytearray(b"abc")
ba.append(100); ba.extend(b"ef"); ba[0] = 65; ba[1:3] = b"BC"
print(ba, len(ba), bytes(ba), ba.pop(), ba, ba.decode())
del ba[0]; print(ba); ba.reverse(); print(ba)
print(bytearray(3), bytes(range(5)), "héllo".encode("utf-8"), "héllo".encode("utf-8").decode("utf-8"))
print(b"  strip  ".strip(), b"a,b".split(b","), b"%d-%s" % (5, b"x"), b"abc".isalpha(), b"123".isdigit())
try:
    b"\xff".decode("utf-8")
except UnicodeDecodeError as e:
    print("UnicodeDecodeError", e.reason if hasattr(e, "reason") else "")
print(int.from_bytes(b"\x00\x10", "big"), (4096).to_bytes(2, "big"), bytes("abc", "ascii"))
