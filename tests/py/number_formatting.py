for n in [0, 7, -7, 255, 1000000, 2**40, -2**70]:
    print(f"{n:d}|{n:10,}|{n:x}|{n:#o}|{n:+}|{n:e}|{n:.1%}")
for x in [0.0, 1.5, -2.25, 1234567.891, 1e-8, 3.0e20, float("inf"), float("nan")]:
    print(f"{x}|{x:.3f}|{x:10.2e}|{x:g}|{x:+.1f}|{x:,.2f}|{x:^12.4}|")
print(format(12.0, ".0f"), format(0.5, ".0f"), format(1.5, ".0f"), format(2.5, ".0f"), format(1e16, ".1f"))
print(round(0.125, 2), round(0.375, 2), round(1e15 + 0.5), round(-1.5), str(1e-4), str(1e-5), 1e15, 1e16)
print(f"{42:08.3f}", f"{-42:08d}", f"{42:<08d}", f"{3.14159:.10g}", f"{1/7:.15f}", f"{2**0.5!r}")
