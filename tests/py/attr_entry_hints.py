# Instance attribute loads and stores whose inline caches guess the entry
# of the name in the instance dict (eval.c attr_cache_rehint): instances
# with other insertion orders, deleted and re-added attributes, dicts that
# grow or are replaced, callables in the instance dict called as methods.


class P:
    def __init__(self, order):
        for name in order:
            setattr(self, name, name.upper())


def read_all(objs):
    out = []
    for o in objs:
        out.append(o.a + o.b + o.c)   # one site, many layouts
    return out


orders = ["abc", "bca", "cab", "acb", "bac", "cba"]
objs = [P(o) for o in orders for _ in range(3)]
print(read_all(objs))

# delete and re-add: the entry moves to the end of the dict
o = P("abc")
for i in range(5):
    print(o.a, o.b, o.c)
    del o.a
    try:
        o.a
    except AttributeError as e:
        print("AttributeError", e)
    o.a = "A%d" % i

# the dict grows (entries are copied), and __dict__ is replaced
o = P("abc")
for i in range(40):
    setattr(o, "x%d" % i, i)
    if i % 7 == 0:
        print(o.a, o.b, o.c, o.x0)
o.__dict__ = {"c": 3, "b": 2, "a": 1}
print(o.a, o.b, o.c)
o.__dict__ = {}
try:
    o.a
except AttributeError as e:
    print("AttributeError", e)


# stores: one site, instances of other orders; replacing values only
class Q:
    pass


def store(objs, v):
    for q in objs:
        q.a = v
        q.b = v + 1


qs = []
for order in orders:
    q = Q()
    for name in order:
        setattr(q, name, 0)
    qs.append(q)
for v in range(3):
    store(qs, v * 10)
print([(q.a, q.b, q.c, list(vars(q))) for q in qs])
store([Q(), Q()], 5)   # new attributes (inserts, not replacements)


# a callable in the instance dict, called through LOAD_METHOD
class Stack:
    def __init__(self):
        self.items = []
        self.append = self.items.append

    def fill(self, n):
        for i in range(n):
            self.append(i)
        return self.items


s = Stack()
print(s.fill(5))
s.append = lambda x: s.items.append(-x)
print(s.fill(3))
del s.append   # now the class has none: AttributeError from the call site
try:
    s.fill(1)
except AttributeError as e:
    print("AttributeError", e)


# a class attribute added later shadows nothing for plain values, but a
# data descriptor on the class takes over from the instance dict
class R:
    pass


r = R()
r.v = 1


def get_v(x):
    return x.v


print([get_v(r) for _ in range(3)])
R.v = property(lambda self: "prop")
print(get_v(r))
del R.v
print(get_v(r))


# a str subclass key with the same text is the same attribute
class Name(str):
    pass


t = R()
t.__dict__[Name("w")] = "sub"
print([getattr(t, "w") for _ in range(2)], t.w)
