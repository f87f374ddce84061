print([chr(i) for i in range(65, 70)], [ord(c) for c in "AZaz09"], chr(0x1F600), ord("\n"))
print(hex(0), hex(-1), hex(2**70), oct(-8), bin(2**10), bin(-5), int("ff", 16), int("-0b101", 0))
print(format(255, "08b"), format(255, "#010x"), format(-255, "x"), f"{65:c}", "%c" % 66, "%x" % 3054)
try:
    chr(-1)
except ValueError as e:
    print(e)
try:
    ord("ab")
except TypeError as e:
    print(e)
