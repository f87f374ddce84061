a = [3, 1, 4, 1, 5, 9, 2, 6]
a.append(5); a.extend([3, 5]); a.insert(0, 0)
print(a, len(a), a.count(5), a.index(4), a.pop(), a.pop(0), a)
a.remove(1); print(a)
b = sorted(a); print(b, sorted(a, reverse=True), a)
a.sort(key=lambda x: -x); print(a)
a.reverse(); print(a, a[2:5], a[::2], a[::-1], a[-3:], a[:-3])
a[1:3] = [10, 20, 30]; print(a)
a[::2] = [0] * len(a[::2]); print(a)
del a[0]; del a[::3]; print(a)
print([1, 2] + [3], [0] * 4, [[1], [2]] == [[1], [2]], [1, 2] < [1, 3], [] == [])
c = [1, 2, 3]
c += [4]; c *= 2; print(c, 3 in c, 7 not in c, c.copy() is c, min(c), max(c), sum(c))
c.clear(); print(c)
nested = [[i * j for j in range(3)] for i in range(3)]
print(nested, list(zip(*nested)))
x = [1, 2, 3]; x.append(x); print(x)
try:
    [].pop()
except IndexError as e:
    print("IndexError:", e)
try:
    [1].index(5)
except ValueError as e:
    print("ValueError:", e)
words = ["banana", "Apple", "cherry", "apple"]
print(sorted(words), sorted(words, key=str.lower), sorted(words, key=len))
print(list(range(10))[::-3], list(reversed([1, 2, 3])), [1, 2, 3][5:], [1,2,3][-10:2])
