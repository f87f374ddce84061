data = [3, 8, 1, 9, 4]
if (n := len(data)) > 3:
    print("long list", n)
print([y for x in data if (y := x * 2) > 6])
chunks = iter(["ab", "cd", ""])
while (chunk := next(chunks)):
    print("chunk", chunk)
def f():
    return [(last := v) for v in range(3)], last
print(f())
print((z := 10) + z, z)
