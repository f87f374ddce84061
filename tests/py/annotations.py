x: int = 5
y: "str"
z: list[int] = [1, 2]
def f(a: int, b: str = "s", *args: int, c: float = 1.0, **kw: dict) -> bool:
    v: int = a * 2
    return v > 3
class C:
    field: int = 3
    other: str
    def m(self) -> "C":
        return self
print(x, z, f(2), f(1, "x", 1, 2, c=2.0, k=1), C.field, C().m().field)
try:
    y
except NameError as e:
    print("NameError:", e)
