class Acc:
    def __init__(self): self.items = []
    def __iadd__(self, x):
        self.items.append(x); return self
    def __isub__(self, x):
        self.items.remove(x); return self
a = Acc(); b = a
a += 1; a += 2; a -= 1
print(a.items, a is b)
class OnlyAdd:
    def __init__(self, v): self.v = v
    def __add__(self, o): return OnlyAdd(self.v + o)
o = OnlyAdd(1); o2 = o; o += 5
print(o.v, o2.v, o is o2)
x = [1]; y = x; x += [2]; print(y)
s = "a"; t = s; s += "b"; print(s, t)
d = {"k": 1}; d["k"] += 10; d["k"] *= 2; print(d)
class H:
    v = 0
h = H(); h.v += 5; H.v += 1; print(h.v, H.v)
m = [[1, 2], [3, 4]]; m[1][0] -= 10; m[0] *= 2; print(m)
n = 5; n **= 3; n //= 7; n %= 6; n <<= 3; n >>= 1; n &= 0xff; n |= 0x100; n ^= 1; print(n)
f = 1.5; f /= 2; f -= 0.25; print(f)
st = {1, 2}; st |= {3}; st -= {1}; print(st)
