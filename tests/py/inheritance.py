class Animal:
    def __init__(self, name):
        self.name = name
    def speak(self):
        return "..."
    def describe(self):
        return f"{self.name} says {self.speak()}"
class Dog(Animal):
    def speak(self):
        return "woof"
class Puppy(Dog):
    def __init__(self, name, age):
        super().__init__(name)
        self.age = age
    def speak(self):
        return super().speak() + "!"
for a in [Animal("x"), Dog("rex"), Puppy("bit", 1)]:
    print(a.describe(), type(a).__mro__[0].__name__)
print(Puppy.__mro__)
print(isinstance(Puppy("a", 1), Animal), issubclass(Dog, Puppy), Puppy.__bases__)
class A:
    def who(self): return "A"
class B(A):
    def who(self): return "B" + super().who()
class C(A):
    def who(self): return "C" + super().who()
class D(B, C):
    def who(self): return "D" + super().who()
print(D().who(), [k.__name__ for k in D.__mro__])
class Base:
    registry = []
    def __init_subclass__(cls, **kw):
        super().__init_subclass__(**kw)
        Base.registry.append(cls.__name__)
class S1(Base): pass
class S2(S1): pass
print(Base.registry)
try:
    class X(A, B): pass
except TypeError as e:
    print("TypeError:", e)
class Meta:
    x = 1
class Child(Meta):
    pass
Child.x = 2
print(Meta.x, Child.x)
Meta.y = 5
print(Child.y)
class WithSlots:
    __slots__ = ("a", "b")
    def __init__(self):
        self.a = 1
w = WithSlots()
try:
    w.c = 3
except AttributeError as e:
    print("AttributeError:", e)
print(w.a, hasattr(w, "b"))
