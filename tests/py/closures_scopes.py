x = "global"
def f():
    x = "enclosing"
    def g():
        return x
    return g()
print(f(), x)
def counter():
    n = [0]
    def inc(by=1):
        n[0] += by
        return n[0]
    return inc
inc = counter(); inc(); inc(5); print(inc())
def outer():
    a = 1
    def mid():
        b = 2
        def inner():
            nonlocal a
            a += b
            return a
        return inner
    f = mid()
    f(); f()
    return a
print(outer())
funcs = []
for i in range(3):
    funcs.append(lambda: i)
print([fn() for fn in funcs])
print([(lambda y: lambda: y)(i)() for i in range(3)])
class C:
    v = 10
    items = [v * 2]
    def m(self):
        return C.v
print(C.items, C().m())
def shadow():
    try:
        print(undefined_local)
        undefined_local = 1
    except UnboundLocalError as e:
        print("UnboundLocalError:", e)
shadow()
def unused_nonlocal():
    y = 1
    def g():
        nonlocal y
        del y
    g()
    try:
        return y
    except NameError as e:
        return str(e)
print(unused_nonlocal())
print([x for x in range(3)], x)
total = sum(i * i for i in range(10))
print(total)
