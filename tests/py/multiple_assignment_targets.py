a = b = c = 0
a += 1
print(a, b, c)
x, (y, z), *w = 1, (2, 3), 4, 5
print(x, y, z, w)
data = {"p": [0, 0]}
data["p"][0], data["p"][1] = 7, 8
print(data)
for (i, j), k in [((1, 2), 3), ((4, 5), 6)]:
    print(i + j + k)
pairs = [(1, "one"), (2, "two")]
nums, names = zip(*pairs)
print(nums, names)
head, *tail = [1]
print(head, tail)
*a, b = [1, 2]
print(a, b)
i = 0
lst = [10, 20, 30]
i, lst[i] = 1, 99
print(i, lst)
