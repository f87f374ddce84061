class Point:
    """A point."""
    dims = 2
    def __init__(self, x, y):
        self.x = x
        self.y = y
    def __repr__(self):
        return f"Point({self.x}, {self.y})"
    def __eq__(self, other):
        return isinstance(other, Point) and (self.x, self.y) == (other.x, other.y)
    def __hash__(self):
        return hash((self.x, self.y))
    def __add__(self, other):
        return Point(self.x + other.x, self.y + other.y)
    def norm2(self):
        return self.x ** 2 + self.y ** 2
    @property
    def mag(self):
        return self.norm2() ** 0.5
    @staticmethod
    def origin():
        return Point(0, 0)
    @classmethod
    def from_tuple(cls, t):
        return cls(*t)
p = Point(3, 4)
print(p, p.mag, p + Point(1, 1), Point.origin(), Point.from_tuple((5, 6)), p == Point(3, 4), p != Point(0, 0))
print({p, Point(3, 4)}, Point.dims, p.dims, Point.__doc__, Point.__name__, type(p).__name__)
p.z = 5; print(p.__dict__, hasattr(p, "z"), getattr(p, "q", "dflt"))
del p.z; print(hasattr(p, "z"))
print(isinstance(p, Point), isinstance(p, object), issubclass(Point, object), type(p) is Point)
class Counter:
    count = 0
    def __init__(self):
        Counter.count += 1
        self.id = Counter.count
c1, c2 = Counter(), Counter()
print(c1.id, c2.id, Counter.count)
class Empty:
    pass
e = Empty(); print(type(e).__name__, repr(e).startswith("<__main__.Empty object at"), str(Point))
try:
    p.missing
except AttributeError as ex:
    print("AttributeError:", ex)
try:
    Point(1)
except TypeError as ex:
    print("TypeError:", ex)
