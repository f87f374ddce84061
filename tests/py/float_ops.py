print(0.1 + 0.2, 1.0, 1e16, 1e-7, 123456789012345678.0, 1.5e300 * 1e10, -0.0)
print(3.14159, 2.0 ** 0.5, 10 / 3, 1e22, 1e21, 1.0e-5, 0.0001)
print(float('inf'), float('-inf'), float('nan'), float(' 1.5 '), float('1_0.5'))
print(round(3.14159, 2), round(2.675, 2), round(0.5), round(1.5), round(-0.5))
print(int(1e20), 7.0 // 2, -7.0 // 2, 7.5 % 2, -7.5 % 2, divmod(7.5, 2))
print(abs(-2.5), max(1.5, 2), min(0.1, -3), 2.5.is_integer(), 4.0.is_integer())
print((0.75).as_integer_ratio(), float(10**20), 1/3 + 1/3 + 1/3 == 1.0)
print(hash(1.0) == hash(1), hash(0.5), 1e300 * 1e300, -(1e300 * 1e300))
print(str(1.0), repr(2.5), 1.0 == 1, 0.1 * 3, 100.0, 1e100)
x = 1.0
for i in range(10):
    x = x * 1.1 + 0.01
print(x)
print(f"{3.14159:.2f} {2.5:e} {1e-10:g} {123456.789:,.2f} {0.25:%} {42.0:10.3f}|")
print('%.3f %5.1f %-8.2e| %g %g' % (1/3, 2.25, 12345.678, 1e20, 0.0001))
