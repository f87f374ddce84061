class Celsius:
    def __init__(self, t=0): self.temperature = t
    @property
    def temperature(self): return self._t
    @temperature.setter
    def temperature(self, v):
        if v < -273.15:
            raise ValueError("too cold")
        self._t = v
    @temperature.deleter
    def temperature(self): print("deleting"); del self._t
    fahrenheit = property(lambda self: self._t * 9 / 5 + 32)
c = Celsius(25); print(c.temperature, c.fahrenheit)
c.temperature = 100; print(c.fahrenheit)
try:
    c.temperature = -300
except ValueError as e:
    print(e)
del c.temperature; print(hasattr(c, "_t"))
class Typed:
    def __init__(self, name, kind): self.name, self.kind = name, kind
    def __get__(self, obj, owner):
        if obj is None: return self
        return obj.__dict__.get(self.name)
    def __set__(self, obj, v):
        if not isinstance(v, self.kind):
            raise TypeError(f"{self.name} must be {self.kind.__name__}")
        obj.__dict__[self.name] = v
class Person:
    age = Typed("age", int)
    name = Typed("name", str)
    def __init__(self, n, a): self.name, self.age = n, a
p = Person("al", 30); print(p.name, p.age, type(Person.age).__name__)
try:
    p.age = "old"
except TypeError as e:
    print(e)
class Lazy:
    def __init__(self, fn): self.fn = fn
    def __get__(self, obj, owner):
        v = self.fn(obj); setattr(obj, self.fn.__name__, v); return v
class Data:
    @Lazy
    def expensive(self):
        print("computing"); return 42
d = Data(); print(d.expensive, d.expensive)
class CM:
    count = 0
    @classmethod
    def make(cls): cls.count += 1; return cls()
    @staticmethod
    def helper(x): return x * 2
CM.make(); CM().make(); print(CM.count, CM.helper(4), CM().helper(5))
