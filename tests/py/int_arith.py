a, b = 17, 5
print(a + b, a - b, a * b, a / b, a // b, a % b, a ** b)
print(-a // b, -a % b, a // -b, a % -b, divmod(-17, 5), divmod(17, -5))
print(2 ** 100, -2 ** 63, (2 ** 64) // 3, (2 ** 64) % 1000007)
print(1 << 70, (1 << 70) >> 65, -1 >> 3, ~5, ~-1, 5 & 3, 5 | 3, 5 ^ 3, -6 & 0xff)
print(abs(-9), abs(2**70 * -1), pow(3, 4, 5), pow(2, -1), pow(3, -1, 7))
print(int('42'), int('-0x1f', 16), int('0b101', 0), int('1_000'), int(3.99), int(-3.99), int(True))
print(7 == 7.0, 2**53 + 1 == 2.0**53, 10 ** 20 > 1e19, 3 < 4.5)
print(round(2.5), round(3.5), round(-2.5), round(1234, -2), round(1250, -2))
print(hash(10), hash(-1), hash(2**61), hash(2**61 - 1), hash(True))
print((255).bit_length(), (0).bit_length(), (-8).bit_length(), (12).to_bytes(2, 'big'))
print(int.from_bytes(b'\x01\x00', 'little'), (1024).to_bytes(4, 'little', signed=True))
print(bin(10), oct(64), hex(255), hex(-255), bin(-3))
x = 10
x += 5; x -= 2; x *= 3; x //= 4; x **= 2; x %= 50; x <<= 2; x |= 1
print(x)
print(True + True, True * 10, False - 1, isinstance(True, int))
print(0 == -0, 1 / 4, 7 // 2.0, 7 % 2.5, -7 % 2.5)
