calls = []
def src():
    for i in range(5):
        calls.append(i)
        yield i
g = (x * 2 for x in src())
print(calls)
print(next(g), calls)
print(list(g), calls)
def lazy_range(n):
    print("start")
    i = 0
    while i < n:
        yield i
        i += 1
    print("end")
for v in lazy_range(2):
    print("value", v)
it = iter(lazy_range(3))
print(next(it))
print("first pulled")
print(list(it))
print(any(x > 2 for x in lazy_range(10)))
