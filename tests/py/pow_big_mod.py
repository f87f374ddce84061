p = 2**127 - 1
print(pow(2, p - 1, p), pow(3, 10**18, 10**9 + 7), pow(12345678901234567890, 98765, 10**30 + 57))
print(pow(7, -1, 13), (7 * pow(7, -1, 13)) % 13, pow(-2, 101, 1000), pow(2, 1000) % 1000)
n = 1
for i in range(1, 201):
    n *= i
print(len(str(n)), str(n)[:30], n % (10**9 + 7), n.bit_length())
a, b = 0, 1
for _ in range(1000):
    a, b = b, a + b
print(len(str(a)), a % 10**20)
