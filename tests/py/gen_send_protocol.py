def averager():
    total, n, avg = 0.0, 0, None
    while True:
        x = yield avg
        total += x; n += 1; avg = total / n
a = averager(); next(a)
print([a.send(v) for v in [10, 20, 30, 40]])
def g():
    x = yield
    print("got", x)
gg = g(); gg.send(None)
try:
    gg.send(5)
except StopIteration:
    print("stopped")
try:
    g().send(1)
except TypeError as e:
    print(e)
