def append_to(x, lst=[]):
    lst.append(x)
    return lst
print(append_to(1), append_to(2), append_to(3, []))
def safe(x, lst=None):
    lst = [] if lst is None else lst
    lst.append(x)
    return lst
print(safe(1), safe(2))
a = [[0] * 3] * 3
a[0][0] = 1
print(a)
b = [[0] * 3 for _ in range(3)]
b[0][0] = 1
print(b)
x = [1, 2]
y = x
y += [3]
print(x, y is x)
t = (1, 2)
u = t
u += (3,)
print(t, u, u is t)
