for i in range(10):
    if i % 2 == 0:
        continue
    if i > 7:
        break
    print("odd", i)
else:
    print("never")
for i in range(3):
    pass
else:
    print("loop finished", i)
n = 0
while n < 5:
    n += 1
    if n == 3:
        continue
    print("n", n)
else:
    print("while else")
while True:
    n -= 1
    if n < 0:
        break
print("n after", n)
x = 5
if x > 10:
    print("big")
elif x > 3:
    print("medium")
else:
    print("small")
print("yes" if x else "no", 1 < x < 10, 1 < x > 10, x == 5 == 5.0)
for i, c in enumerate("abc", 1):
    print(i, c, end=" ")
print()
for a, b in zip([1, 2, 3], "xy"):
    print(a, b)
print(all([]), any([]), all(x > 0 for x in [1, 2]), any(x > 5 for x in [1, 2]))
if (y := x * 2) > 8:
    print("walrus", y)
data = [1, 2, 3, 4]
while (item := data.pop()) != 2:
    print("popped", item)
