_registry = {}
def register(name):
    def deco(fn):
        _registry[name] = fn
        return fn
    return deco
@register("add")
def add(a, b): return a + b
@register("mul")
def mul(a, b): return a * b
print(sorted(_registry), _registry["add"](2, 3), _registry["mul"](2, 3))
CONFIG = {"debug": False}
def toggle():
    CONFIG["debug"] = not CONFIG["debug"]
toggle(); toggle(); toggle()
print(CONFIG)
counter = 0
def incr():
    global counter
    counter += 1
    return counter
print([incr() for _ in range(3)], counter)
print(sorted(k for k in globals() if not k.startswith("_"))[:5])
