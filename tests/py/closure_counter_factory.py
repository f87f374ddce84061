def make_counter(start=0, step=1):
    count = start
    def counter():
        nonlocal count
        value = count
        count += step
        return value
    def reset():
        nonlocal count
        count = start
    counter.reset = reset
    return counter
c1 = make_counter()
c2 = make_counter(100, 10)
print([c1() for _ in range(3)], [c2() for _ in range(3)])
c1.reset(); print(c1(), c1.__name__, c2.__closure__ is not None)
def multipliers():
    return [lambda x, n=n: x * n for n in range(1, 4)]
print([m(10) for m in multipliers()])
def outer():
    v = "outer"
    def middle():
        def inner():
            return v
        return inner()
    return middle()
print(outer())
def cell_shared():
    x = 0
    def get(): return x
    def set(v):
        nonlocal x
        x = v
    return get, set
get, set_ = cell_shared(); set_(42); print(get())
