s = list(range(10))
print(s[2:7], s[:3], s[7:], s[-3:-1], s[::3], s[1::2], s[::-2], s[8:2:-2], s[-1:-5:-1], s[100:], s[:-100])
s[2:4] = ["a", "b", "c"]; print(s)
s[::3] = [None] * len(s[::3]); print(s)
del s[1:3]; print(s)
s[:] = []; print(s)
t = "abcdefghij"
print(t[::-1], t[2:8:3], t[-4:], t[:0], t[5:2], (1, 2, 3, 4)[::2], range(20)[3:15:4])
b = bytearray(b"hello"); b[0:1] = b"J"; print(b, bytes(b[1:3]))
m = [[1, 2, 3], [4, 5, 6]]
print([r[1:] for r in m], m[1][::-1])
x = list(range(6)); x[1:5:2] = "xy"; print(x)
try:
    x[::2] = [1]
except ValueError as e:
    print(e)
print("hello world"[slice(0, 5)], [1, 2, 3][slice(None, None, -1)])
