class Temp:
    unit = "C"
    def __init__(self, deg): self.deg = deg
    @classmethod
    def from_f(cls, f): return cls(round((f - 32) * 5 / 9, 2))
    @staticmethod
    def valid(d): return d > -273.15
    @classmethod
    def describe(cls): return f"{cls.__name__} in {cls.unit}"
class Kelvin(Temp):
    unit = "K"
print(Temp.from_f(212).deg, Kelvin.from_f(32).__class__.__name__, Temp.valid(-300), Temp(1).valid(0))
print(Temp.describe(), Kelvin.describe(), Kelvin(3).describe())
sm = staticmethod(lambda: "raw"); cm = classmethod(lambda cls: cls)
print(type(sm).__name__, type(cm).__name__)
