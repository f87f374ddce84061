def f0(x): return x + 1
def f1(x): return f0(x) * 2
def f2(x): return f1(x) - 3
def f3(x): return f2(x) // 2
def f4(x): return f3(x) % 7
print([f4(i) for i in range(20)])
total = 0
for i in range(20000):
    total += f4(i)
print(total)
def apply_n(f, n, x):
    for _ in range(n):
        x = f(x)
    return x
print(apply_n(f0, 1000, 0), apply_n(lambda v: v * 2 % 1000003, 500, 1))
