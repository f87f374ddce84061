class JsonMixin:
    def to_json(self):
        return "{" + ", ".join(f'"{k}": {v!r}' for k, v in sorted(vars(self).items())) + "}"
class ReprMixin:
    def __repr__(self):
        return f"{type(self).__name__}({', '.join(f'{k}={v!r}' for k, v in sorted(vars(self).items()))})"
class Base:
    def __init__(self, **kw):
        for k, v in kw.items():
            setattr(self, k, v)
class Item(JsonMixin, ReprMixin, Base):
    pass
i = Item(name="x", qty=2)
print(i, i.to_json(), [c.__name__ for c in Item.__mro__])
class A:
    def hi(self): return "A"
class B(A):
    def hi(self): return "B>" + super().hi()
class C(A):
    def hi(self): return "C>" + super().hi()
class D(C, B):
    def hi(self): return "D>" + super().hi()
print(D().hi(), D.__mro__[1].__name__)
class Grand:
    @classmethod
    def create(cls): return cls.__name__
class Parent(Grand):
    @classmethod
    def create(cls): return "P:" + super().create()
print(Parent.create(), Grand.create())
class WithClassCell:
    def which(self):
        return __class__.__name__
class Sub(WithClassCell):
    pass
print(Sub().which())
