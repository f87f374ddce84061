a = list(range(100000))
print(len(a), sum(a), a[-1], a[50000], a.index(99999), len(a[::7]))
a.reverse(); print(a[:3]); a.sort(); print(a[:3])
b = [x * x for x in a if x % 1000 == 0]
print(len(b), b[-1], max(b))
c = sorted(a, key=lambda x: -x)[:5]; print(c)
del a[10:99990]; print(len(a), a)
