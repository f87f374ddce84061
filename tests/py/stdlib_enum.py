import enum
from enum import Enum, IntEnum, Flag, IntFlag, auto, unique, StrEnum


class Color(Enum):
    RED = 1
    GREEN = 2
    BLUE = 3


print(Color.RED, repr(Color.GREEN), Color(3), Color["RED"], Color.RED.name, Color.RED.value)
print(list(Color), len(Color), Color.RED in Color, isinstance(Color.RED, Color))
print(Color.__members__)
print(type(Color.__members__).__name__)
try:
    Color(7)
except ValueError as e:
    print("ValueError", e)
try:
    Color.RED = 5
except AttributeError as e:
    print("AttributeError", e)


class Shape(IntEnum):
    SQUARE = 4
    TRIANGLE = 3


print(Shape.SQUARE + 1, Shape.SQUARE == 4, sorted(Shape), int(Shape.TRIANGLE), f"{Shape.SQUARE}")


class Perm(Flag):
    R = auto()
    W = auto()
    X = auto()


rw = Perm.R | Perm.W
print(rw, repr(rw), Perm.R in rw, Perm.X in rw, list(rw), ~Perm.R, bool(Perm(0)))


class Mode(IntFlag):
    A = 1
    B = 2
    C = 4


print(Mode.A | Mode.C, Mode(5), Mode.A | 8, int(Mode.B | Mode.C))


class Auto(Enum):
    ONE = auto()
    TWO = auto()

    def describe(self):
        return f"{self.name}={self.value}"

    @property
    def double(self):
        return self.value * 2

    @classmethod
    def first(cls):
        return cls.ONE


print(Auto.TWO.describe(), Auto.TWO.double, Auto.first())

try:
    @unique
    class Dup(Enum):
        A = 1
        B = 1
except ValueError as e:
    print("ValueError", e)


class Alias(Enum):
    A = 1
    B = 1


print(Alias.B is Alias.A, list(Alias), Alias.__members__["B"])


class S(StrEnum):
    X = auto()
    Y = "why"


print(S.X, S.Y.upper(), S.X == "x")

Animal = Enum("Animal", "ANT BEE CAT")
print(list(Animal), Animal.BEE.value)


class Planet(Enum):
    MERCURY = (3.303e+23, 2.4397e6)
    EARTH = (5.976e+24, 6.37814e6)

    def __init__(self, mass, radius):
        self.mass = mass
        self.radius = radius


print(Planet.EARTH.mass, Planet.EARTH.value)
print(hash(Color.RED) == hash(Color.RED), {Color.RED: 1}[Color.RED])
print(Color.RED.__class__.__name__, Color.__name__, Color.__qualname__)
