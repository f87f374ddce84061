n, steps = 27, 0
while n != 1:
    n = n // 2 if n % 2 == 0 else 3 * n + 1
    steps += 1
print(steps)
i = 0
while i < 10:
    i += 1
    if i % 3:
        continue
    print("div3", i)
else:
    print("no break")
stack = [1, [2, [3, [4]]]]
total = 0
while stack:
    top = stack.pop()
    if isinstance(top, list):
        stack.extend(top)
    else:
        total += top
print(total)
a, b = 0, 1
while b < 1000:
    a, b = b, a + b
print(a, b)
count = 0
while True:
    count += 1
    if count >= 100000:
        break
print(count)
