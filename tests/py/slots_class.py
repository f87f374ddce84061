class P:
    __slots__ = ("x", "y")
    def __init__(self, x, y): self.x, self.y = x, y
p = P(1, 2)
print(p.x, p.y, hasattr(p, "__dict__"), P.__slots__)
try:
    p.z = 3
except AttributeError as e:
    print("AttributeError:", e)
class Q(P):
    __slots__ = ("z",)
q = Q(1, 2); q.z = 3; print(q.x + q.y + q.z)
try:
    print(P.__new__(P).x)
except AttributeError as e:
    print("AttributeError:", e)
