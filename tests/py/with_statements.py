class Res:
    def __init__(self, name): self.name = name
    def __enter__(self):
        print("open", self.name); return self
    def __exit__(self, et, ev, tb):
        print("close", self.name, et.__name__ if et else "ok")
        return False
with Res("a") as a, Res("b") as b:
    print("body", a.name, b.name)
try:
    with Res("c"):
        raise KeyError("x")
except KeyError:
    print("propagated")
def f():
    with Res("d"):
        return "returned"
print(f())
for i in range(3):
    with Res(str(i)):
        if i == 1:
            continue
        if i == 2:
            break
class Suppress:
    def __init__(self, *types): self.types = types
    def __enter__(self): return None
    def __exit__(self, et, ev, tb): return et is not None and issubclass(et, self.types)
with Suppress(ZeroDivisionError):
    1 / 0
print("suppressed")
