class Proxy:
    def __init__(self, target):
        object.__setattr__(self, "_target", target)
        object.__setattr__(self, "log", [])
    def __getattr__(self, name):
        self.log.append(name)
        return getattr(self._target, name)
    def __setattr__(self, name, value):
        self.log.append("set " + name)
        setattr(self._target, name, value)
class T:
    x = 1
t = T(); p = Proxy(t)
print(p.x); p.y = 5; print(t.y, p.y, p.log)
class Strict:
    __slots__ = ()
    def __getattribute__(self, name):
        if name.startswith("_"):
            return object.__getattribute__(self, name)
        return "intercepted:" + name
print(Strict().anything, Strict().other)
class Dyn:
    def __init__(self):
        self.real = 1
    def __getattr__(self, n):
        if n == "computed":
            return 42
        raise AttributeError(f"no {n}")
d = Dyn()
print(d.real, d.computed, getattr(d, "nothing", "dflt"), hasattr(d, "nothing"))
try:
    d.missing
except AttributeError as e:
    print(e)
class DelAttr:
    def __delattr__(self, n):
        print("deleting", n)
da = DelAttr(); del da.q
setattr(da, "v", 3); print(da.v); delattr(da, "v")
