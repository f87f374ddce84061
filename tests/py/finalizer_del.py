# __del__ with PEP 442 semantics: runs once, resurrection allowed, cycles of
# objects with finalizers collected; files flushed and closed when
# collected. gc.collect() makes the timing deterministic.
import gc
import os


class D:
    def __init__(self, name):
        self.name = name

    def __del__(self):
        print("del", self.name)


d = D("a")
del d
gc.collect()
print("after a")


def make():
    D("local")


make()
gc.collect()
print("after local")

saved = []


class R:
    count = 0

    def __del__(self):
        R.count += 1
        print("R del", R.count)
        saved.append(self)


R()
gc.collect()
print(len(saved), saved[0].__class__.__name__)
saved.clear()
gc.collect()
gc.collect()
print("no second del:", R.count)

out = []


class C:
    def __init__(self, n):
        self.n = n
        self.other = None

    def __del__(self):
        out.append(("C del", self.n, self.other.n))


a = C(1)
b = C(2)
a.other = b
b.other = a
del a, b
gc.collect()
print(sorted(out))


class Sub(D):
    pass


Sub("sub")
gc.collect()


# __del__ sees the object whole, and what it references stays alive meanwhile
class Holder:
    def __init__(self):
        self.items = [D("held")]

    def __del__(self):
        print("holder sees", len(self.items), self.items[0].name)


Holder()
gc.collect()
gc.collect()

path = "/tmp/tmpy_finalizer_%d.txt" % os.getpid()
open(path, "w").write("xyz")
gc.collect()
print(repr(open(path).read()))
f = open(path, "a")
f.write("more")
del f
gc.collect()
with open(path) as g:
    print(repr(g.read()))
os.remove(path)


class E:
    def __del__(self):
        raise ValueError("boom in __del__")


E()
gc.collect()
print("end")
