import copy, string, operator
a = [1, [2, 3], {"k": [4]}]
b = copy.copy(a); c = copy.deepcopy(a)
a[1].append(99); a[2]["k"].append(5)
print(b, c)
class Obj:
    def __init__(self): self.items = [1]
o = Obj(); o2 = copy.deepcopy(o); o2.items.append(2); print(o.items, o2.items)
print(string.ascii_lowercase, string.digits, string.ascii_uppercase[:5], len(string.punctuation), string.capwords("hi there"))
print(string.Template("$who likes $what").substitute(who="tim", what="kung pao"))
print(operator.add(2, 3), operator.mul(4, 5), operator.itemgetter(1)([7, 8]), operator.attrgetter("real")(3))
print(sorted([(1, "b"), (0, "c")], key=operator.itemgetter(1)), operator.methodcaller("upper")("x"), operator.neg(5))
print(list(map(operator.itemgetter(0, 2), ["abc", "def"])), operator.truediv(1, 4), operator.floordiv(7, 2))
