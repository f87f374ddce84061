print(int("  42  "), int("-17"), int("+5"), int("0x1A", 16), int("1A", 16), int("777", 8), int("z", 36), int("0o17", 0), int("0b11", 0))
print(int(3.9), int(-3.9), int("1_000_000"), float("1e3"), float("-.5"), float("inf") > 1e308, str(float("-inf")))
for bad in ["", "1.5", "abc", "0x", "1__0", " 1 2 "]:
    try:
        int(bad)
    except ValueError as e:
        print(e)
try:
    float("xyz")
except ValueError as e:
    print(e)
try:
    int("10", 1)
except ValueError as e:
    print(e)
print(str(123), repr(123), str(-0), int(True), int(False), float(True), bool(0.0), bool(-1))
print(hex(0), oct(0), bin(0), hex(2**64), int(hex(2**64), 16) == 2**64, int("9" * 30) + 1)
print(round(123.456, -1), round(-0.0), int(1e18), int(-2.5e-3), int(float(2**60)))
