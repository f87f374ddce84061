class Key:
    def __init__(self, k): self.k = k
    def __eq__(self, o): return isinstance(o, Key) and self.k == o.k
    def __hash__(self): return hash(self.k)
    def __repr__(self): return f"Key({self.k})"
d = {Key(1): "a", Key(2): "b"}
print(d[Key(1)], Key(2) in d, Key(3) in d, len({Key(1), Key(1)}))
class NoHash:
    def __eq__(self, o): return True
try:
    {NoHash()}
except TypeError as e:
    print(e)
print(NoHash.__hash__ is None)
class Default:
    pass
x = Default()
print(x == x, x == Default(), len({x, x}), hash(x) == hash(x))
print(1 == 1.0, hash(1) == hash(1.0), {1: "int"}[1.0], {1.0: "f", 1: "i"}, {True: 1, 1: 2})
print("a" == "a", (1, [2]) == (1, [2]), [1, 2] == (1, 2), {1: 2} == {1: 2.0})
