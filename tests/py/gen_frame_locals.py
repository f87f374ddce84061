# f_locals and f_lineno of generator frames: new, suspended, resumed, finished.
import sys


def counter(n, step=1):
    total = 0
    for i in range(n):
        total += i * step
        yield total
    done = True
    yield done


g = counter(3, step=2)
print("new", g.gi_frame.f_locals, g.gi_frame.f_lineno)
for _ in range(2):
    next(g)
    fr = g.gi_frame
    print("suspended", sorted(fr.f_locals.items()), fr.f_lineno)
same = g.gi_frame is fr
print("same frame object", same)
next(g)
next(g)
print("late", sorted(fr.f_locals.items()), fr.f_lineno)


def closure_gen(a):
    b = [a]

    def inner():
        return a + len(b)
    yield inner()
    b.append(1)
    yield inner()


c = closure_gen(10)
print(sorted(k for k in c.gi_frame.f_locals))
print(next(c), sorted((k, v) for k, v in c.gi_frame.f_locals.items() if k != "inner"))
print(next(c), c.gi_frame.f_locals["b"])


def self_view():
    x = 1
    f = sys._getframe()
    yield dict(f.f_locals), f.f_lineno
    x = 2
    yield dict(f.f_locals), f.f_lineno
    x = 3
    yield f


s = self_view()
for _ in range(2):
    d, line = next(s)
    print("inside", d["x"], line)
f = next(s)
print("outside", f.f_locals["x"], f.f_lineno, s.gi_frame is f)


def nested():
    yield from counter(2)


n = nested()
next(n)
print("delegating", sorted(n.gi_frame.f_locals), n.gi_frame.f_lineno)
print("delegate", sorted(n.gi_yieldfrom.gi_frame.f_locals.items()))
