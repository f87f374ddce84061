def f(a, b=2):
    c = a + b
    return sorted(locals().items())
print(f(1))
class K:
    x = 1
    def m(self): pass
k = K(); k.y = 2
print(vars(k), "x" in dir(k), "m" in dir(K), "y" in dir(k), sorted(n for n in dir(k) if not n.startswith("_")))
print(sorted(vars(K).keys() - {"__module__", "__dict__", "__weakref__", "__doc__", "__qualname__"}))
