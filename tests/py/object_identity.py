a = [1]
b = a
c = [1]
print(a is b, a is c, a == c, id(a) == id(b), id(a) == id(c))
x = object()
print(x is x, x == x, x != object())
s1 = "hello"
s2 = "hel" + "lo"
print(s1 == s2, None is None, True is True)
l = []
ids = {id(l)}
l.append(1)
print(id(l) in ids)
keep = [object() for _ in range(100)]
idset = {id(o) for o in keep}
junk = [list(range(10)) for _ in range(10000)]
print(len(idset), {id(o) for o in keep} == idset)
