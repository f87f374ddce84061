def gen():
    try:
        yield 1
        yield 2
    except GeneratorExit:
        print("GeneratorExit received")
        raise
    finally:
        print("gen finally")
g = gen(); print(next(g)); g.close(); print("closed")
def accumulate():
    total = 0
    while True:
        v = yield total
        if v is None:
            return total
        total += v
a = accumulate(); next(a)
for v in [1, 2, 3]:
    print(a.send(v))
try:
    a.send(None)
except StopIteration as e:
    print("result", e.value)
def delegator():
    result = yield from accumulate()
    yield "delegate got " + str(result)
d = delegator(); next(d); d.send(10); d.send(5); print(d.send(None))
def thrower():
    try:
        yield "first"
    except KeyError as e:
        yield "handled " + str(e)
t = thrower(); next(t); print(t.throw(KeyError("k")))
def infinite():
    n = 0
    while True:
        yield n
        n += 1
import itertools
print(list(itertools.islice(infinite(), 5)), next(x for x in infinite() if x > 10))
def gen_with_return():
    yield 1
    return 99
def wrapper():
    r = yield from gen_with_return()
    print("inner returned", r)
list(wrapper())
g2 = (i for i in range(3))
print(next(g2), list(g2), iter(g2) is g2)
def running():
    yield gr.gi_running
gr = running(); print(next(gr))
