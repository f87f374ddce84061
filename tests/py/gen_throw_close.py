def worker():
    try:
        while True:
            try:
                x = yield
                print("work", x)
            except ValueError as e:
                print("recover", e)
    finally:
        print("cleanup")
w = worker(); next(w); w.send(1); w.throw(ValueError("bad")); w.send(2); w.close()
def g():
    yield 1
x = g()
try:
    x.throw(KeyError("k"))
except KeyError as e:
    print("KeyError propagated", e)
print(list(x))
