class V:
    def __init__(self, *c): self.c = list(c)
    def __repr__(self): return "V(%s)" % ", ".join(map(str, self.c))
    def __add__(self, o): return V(*[a + b for a, b in zip(self.c, o.c)])
    def __sub__(self, o): return V(*[a - b for a, b in zip(self.c, o.c)])
    def __mul__(self, k): return V(*[a * k for a in self.c])
    def __rmul__(self, k): return self * k
    def __neg__(self): return V(*[-a for a in self.c])
    def __abs__(self): return sum(a * a for a in self.c) ** 0.5
    def __len__(self): return len(self.c)
    def __getitem__(self, i): return self.c[i]
    def __setitem__(self, i, v): self.c[i] = v
    def __delitem__(self, i): del self.c[i]
    def __contains__(self, x): return x in self.c
    def __iter__(self): return iter(self.c)
    def __bool__(self): return any(self.c)
    def __eq__(self, o): return isinstance(o, V) and self.c == o.c
    def __lt__(self, o): return abs(self) < abs(o)
    def __call__(self, k): return self.c[k] * 100
    def __iadd__(self, o):
        self.c = [a + b for a, b in zip(self.c, o.c)]
        return self
v, w = V(1, 2), V(3, 4)
print(v + w, v - w, v * 3, 3 * v, -v, abs(w), len(v), v[1], 2 in v, list(v), bool(V(0, 0)))
v[0] = 9; print(v, v(0)); del v[0]; print(v)
print(v == V(2), v != V(2), sorted([V(5), V(1), V(3)]), max(V(1), V(2)))
u = V(1, 1); uid = u; u += V(1, 1); print(u, u is uid)
class R:
    def __radd__(self, o): return "radd(%r)" % (o,)
    def __rsub__(self, o): return "rsub"
print(1 + R(), [1] + R(), 5 - R())
class Cmp:
    def __init__(self, v): self.v = v
    def __eq__(self, o): return self.v == o
    def __gt__(self, o): return self.v > o
print(Cmp(1) == 1, 1 == Cmp(1), Cmp(5) > 2, 2 < Cmp(5))
class Ctx:
    def __enter__(self):
        print("enter"); return self
    def __exit__(self, t, v, tb):
        print("exit", t.__name__ if t else None, v); return True
with Ctx() as c:
    raise ValueError("suppressed")
print("after with")
class Attr:
    def __getattr__(self, name): return "dyn_" + name
    def __setattr__(self, name, v): object.__setattr__(self, name, v * 2)
a = Attr(); a.x = 5; print(a.x, a.y)
class Str:
    def __str__(self): return "STR"
    def __repr__(self): return "REPR"
print(Str(), [Str()], str(Str()), repr(Str()), "%s %r" % (Str(), Str()))
class Idx:
    def __index__(self): return 2
print([10, 20, 30][Idx()], bin(Idx()), range(10)[Idx()])
class H:
    def __hash__(self): return 42
    def __eq__(self, o): return True
print(len({H(), H()}), hash(H()))
