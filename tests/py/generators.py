def count_up(n):
    i = 0
    while i < n:
        yield i
        i += 1
print(list(count_up(5)), sum(count_up(100)))
g = count_up(3)
print(next(g), next(g), next(g), next(g, "done"))
def echo():
    received = yield "ready"
    while True:
        received = yield f"got {received}"
e = echo(); print(next(e), e.send(1), e.send("x"))
def chain(*its):
    for it in its:
        yield from it
print(list(chain([1, 2], "ab", range(2))))
def inner():
    x = yield 1
    yield x * 2
    return "inner done"
def outer():
    r = yield from inner()
    yield r
o = outer(); print(next(o), o.send(21), next(o))
def fib():
    a, b = 0, 1
    while True:
        yield a
        a, b = b, a + b
f = fib(); print([next(f) for _ in range(15)])
def closing():
    try:
        yield 1
        yield 2
    finally:
        print("closed")
c = closing(); next(c); c.close(); print("after close")
def catcher():
    while True:
        try:
            yield
        except ValueError as e:
            print("caught", e)
            yield "recovered"
ct = catcher(); next(ct); print(ct.throw(ValueError("boom")))
gen = (x * x for x in range(5) if x % 2); print(list(gen), list(gen))
print(sorted(x for x in "hello"), max(len(w) for w in ["a", "abc"]))
def ret():
    yield 1
    return 42
r = ret(); next(r)
try:
    next(r)
except StopIteration as e:
    print("returned", e.value)
def bad():
    yield 1
    raise StopIteration
try:
    list(bad())
except RuntimeError as e:
    print("RuntimeError:", e)
def gen_state():
    yield 1
g2 = gen_state()
print(type(g2).__name__, list(g2), list(g2))
