# id() of objects just made (young, not yet moved by the collector): the
# value must stay the same for the object's whole life, across collections,
# differ between live objects, and match the address in default reprs.
import copy
import gc


class Thing:
    pass


objs = []
ids = []
for i in range(2000):
    o = [i] if i % 3 == 0 else ({i: i} if i % 3 == 1 else Thing())
    objs.append(o)
    ids.append(id(o))
    assert id(o) == ids[-1]          # a second id before any collection
print(len(set(ids)) == len(ids))
junk = [[j] * 10 for j in range(20000)]   # enough allocation for minor collections
del junk
print(all(id(o) == i for o, i in zip(objs, ids)))
gc.collect()
print(all(id(o) == i for o, i in zip(objs, ids)))
print(len({id(o) for o in objs}) == len(objs))

# Ids of objects that die young, taken in a loop: live ones never collide.
live = {}
for i in range(5000):
    t = object()
    d = {}
    if i % 100 == 0:
        live[id(t)] = t
    assert id(d) != id(t)
print(all(id(v) == k for k, v in live.items()))

# The default repr shows the same number.
t = Thing()
print(repr(t) == "<%s.Thing object at %#x>" % (__name__, id(t)))
s = object()
print(repr(s) == "<object object at %#x>" % id(s))

# Identity hashing of fresh non-instance objects (functions, classes) and
# dict keys by id, as copy.deepcopy's memo does.
fs = [lambda k=k: k for k in range(300)]
table = {f: f() for f in fs}
[[0] * 50 for _ in range(5000)]
print(all(table[f] == f() for f in fs))
data = {"a": [1, 2, {"b": (3, [4])}], "c": [Thing() for _ in range(5)]}
for _ in range(200):
    c = copy.deepcopy(data)
print(c["a"] == data["a"], c["c"][0] is not data["c"][0], type(c["c"][0]).__name__)
shared = [1, 2]
c = copy.deepcopy({"x": shared, "y": shared, "z": (shared,)})
print(c["x"] is c["y"] is c["z"][0], c["x"] is not shared)
