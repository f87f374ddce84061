x = 0b1011_0110
print(x, bin(x), x.bit_length(), bin(x >> 2), bin(x << 3), x & 0xF, x | 0x100, x ^ 0xFF, ~x, -x & 0xFF)
print((-1) >> 10, (-1024) >> 3, 1 << 100 >> 99, (2**100 - 1) & (2**50), (-2**100) | 1, (-2**70) ^ (2**70))
print([i for i in range(20) if i & (i - 1) == 0], sum(bin(i).count("1") for i in range(256)), (255).bit_count())
try:
    1 << -1
except ValueError as e:
    print(e)
