import math
class Shape:
    def area(self):
        raise NotImplementedError
    def __lt__(self, other):
        return self.area() < other.area()
    def __repr__(self):
        return f"{type(self).__name__}(area={self.area():.2f})"
class Circle(Shape):
    def __init__(self, r): self.r = r
    def area(self): return math.pi * self.r ** 2
class Rect(Shape):
    def __init__(self, w, h): self.w, self.h = w, h
    def area(self): return self.w * self.h
class Square(Rect):
    def __init__(self, s): super().__init__(s, s)
shapes = [Circle(1), Rect(2, 3), Square(2), Circle(0.5)]
print(sorted(shapes), max(shapes), sum(s.area() for s in shapes))
print([type(s).__name__ for s in shapes if isinstance(s, Rect)])
try:
    Shape().area()
except NotImplementedError:
    print("abstract")
