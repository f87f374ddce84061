class Base:
    def __init__(self): self._v = 1
    @property
    def v(self): return self._v
    @v.setter
    def v(self, x): self._v = x
class Child(Base):
    @property
    def v(self): return super().v * 100
c = Child(); print(c.v)
b = Base(); b.v = 5; print(b.v)
try:
    c.v = 3
except AttributeError as e:
    print("AttributeError:", e)
class Ro:
    x = property(lambda self: 42)
try:
    Ro().x = 1
except AttributeError as e:
    print("AttributeError:", e)
print(Ro.x.__class__.__name__, Ro().x)
