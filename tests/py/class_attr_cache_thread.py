# Type attribute lookups are cached per thread, keyed on type versions: every
# change below must be seen by the next lookup, on this thread and on another
# one, whatever the caches held before (loops fill the per-site caches first).
import threading


def read_many(obj, name, n=50):
    seen = set()
    for _ in range(n):
        seen.add(getattr(obj, name, "<missing>"))
    return sorted(map(repr, seen))


def loop_x(obj, n=50):
    v = None
    for _ in range(n):
        v = obj.x          # one LOAD_ATTR site, filled by the loop
    return v


def loop_m(obj, n=50):
    v = None
    for _ in range(n):
        v = obj.m()        # one LOAD_METHOD site
    return v


class A:
    x = "A.x"

    def m(self):
        return "A.m"


class B(A):
    pass


class C(B):
    pass


c = C()
print("start", loop_x(c), loop_m(c))
A.x = "A.x2"
print("base set", loop_x(c))
B.x = "B.x"
print("middle shadows", loop_x(c))
del B.x
print("middle deleted", loop_x(c))
del A.x
try:
    loop_x(c)
except AttributeError as e:
    print("all deleted:", e)
c.x = "c.x"
print("instance", loop_x(c))
A.x = property(lambda self: "A.prop")
print("data descriptor on a base wins over the instance dict", loop_x(c))
del A.x
print("descriptor gone", loop_x(c))
del c.x
A.m = lambda self: "A.m2"
print("method replaced", loop_m(c))
C.m = lambda self: "C.m"
print("method on the class", loop_m(c))
del C.m
print("method back to the base", loop_m(c))
print("class-level read", [C.x if hasattr(C, "x") else None for _ in range(3)][0])
A.x = "A.x3"
print("class-level read after set", [C.x for _ in range(3)][-1])


# __bases__ assignment: the class and its subclasses see the new MRO.
class P1:
    y = "P1.y"

    def who(self):
        return "P1"


class P2:
    y = "P2.y"

    def who(self):
        return "P2"


class D(P1):
    pass


class E(D):
    pass


e = E()
print("bases", read_many(e, "y"), [e.who() for _ in range(20)][-1])
D.__bases__ = (P2,)
print("bases swapped", read_many(e, "y"), [e.who() for _ in range(20)][-1], [k.__name__ for k in E.__mro__])
P2.y = "P2.y2"
print("new base changed", read_many(e, "y"))
P1.y = "P1.y2"
print("old base changed (not seen)", read_many(e, "y"))
D.__bases__ = (P1,)
print("bases back", read_many(e, "y"), [e.who() for _ in range(20)][-1])


# Special methods through the slots and the lookup.
class S:
    def __len__(self):
        return 1

    def __add__(self, o):
        return "add1"


s = S()
print("special", [len(s) for _ in range(20)][-1], [s + 1 for _ in range(20)][-1])
S.__len__ = lambda self: 2
S.__add__ = lambda self, o: "add2"
print("special replaced", [len(s) for _ in range(20)][-1], [s + 1 for _ in range(20)][-1])


class G:
    pass


g = G()
print("no __getattr__", read_many(g, "zz"))
G.__getattr__ = lambda self, name: "got " + name
print("__getattr__ added", read_many(g, "zz"))
del G.__getattr__
print("__getattr__ removed", read_many(g, "zz"))


class I:
    def __init__(self):
        self.v = 1


print("init", [I().v for _ in range(20)][-1])
I.__init__ = lambda self: setattr(self, "v", 2)
print("init replaced", [I().v for _ in range(20)][-1])


class L(list):
    def total(self):
        return sum(self)


lst = L([1, 2, 3])
print("list subclass", [lst.total() for _ in range(20)][-1], [lst.append for _ in range(3)][0].__name__)
L.total = lambda self: -1
L.append = lambda self, v: "no append"
print("list subclass replaced", [lst.total() for _ in range(20)][-1], lst.append(4), list(lst))

# More (type, name) pairs than cache entries: evicted entries must not come back
# wrong after changes.
classes = []
for i in range(300):
    base = type("K%d" % i, (), {"a%d" % j: (i, j) for j in range(20)})
    sub = type("KS%d" % i, (base,), {})
    classes.append((base, sub))
bad = 0
for rnd in range(3):
    for i, (base, sub) in enumerate(classes):
        o = sub()
        for j in range(20):
            if getattr(o, "a%d" % j) != (i, j, rnd) if rnd else getattr(o, "a%d" % j) != (i, j):
                bad += 1
        for j in range(20):
            setattr(base, "a%d" % j, (i, j, rnd + 1))
print("many entries, wrong reads:", bad)


# Another thread: it reads (its own cache), this one changes, in turn.
class T:
    x = 0

    def m(self):
        return "T.m0"


class U(T):
    pass


class V1:
    z = "V1.z"


class V2:
    z = "V2.z"


class W(V1):
    pass


u = U()
w = W()
go = threading.Event()
done = threading.Event()
stop = False
results = []


def reader():
    while True:
        go.wait()
        go.clear()
        if stop:
            done.set()
            return
        results.append((loop_x(u, 20), loop_m(u, 20), read_many(w, "z", 20), read_many(u, "q", 20)))
        done.set()


th = threading.Thread(target=reader)
th.start()


def step(change):
    change()
    go.set()
    done.wait()
    done.clear()
    print("thread sees", results[-1])


step(lambda: None)
for k in range(1, 4):
    step(lambda: setattr(T, "x", k))
step(lambda: setattr(U, "x", "U.x"))
step(lambda: delattr(U, "x"))
step(lambda: setattr(T, "m", lambda self: "T.m1"))
step(lambda: setattr(W, "__bases__", (V2,)))
step(lambda: setattr(T, "q", "T.q"))
step(lambda: delattr(T, "q"))
step(lambda: setattr(W, "__bases__", (V1,)))
stop = True
go.set()
th.join()


# Threads that change and read at the same time: each has its own classes,
# and all read a shared class that one thread changes; a read must give a
# value the class has had, and after the join the last one.
class Shared:
    val = 0


class SharedSub(Shared):
    pass


def own(tid, out):
    class Base:
        a = 0

    class Sub(Base):
        pass

    o = Sub()
    wrong = 0
    for i in range(300):
        Base.a = i
        if o.a != i:
            wrong += 1
        Sub.a = -i
        if o.a != -i:
            wrong += 1
        del Sub.a
        if o.a != i:
            wrong += 1
        if not (0 <= SharedSub().val <= 300):
            wrong += 1
    out[tid] = wrong


def writer(out):
    for i in range(1, 301):
        Shared.val = i
    out["w"] = 0


out = {}
ths = [threading.Thread(target=own, args=(t, out)) for t in range(3)] + [threading.Thread(target=writer, args=(out,))]
for t in ths:
    t.start()
for t in ths:
    t.join()
print("concurrent wrong reads:", sorted(out.items(), key=str), "final", SharedSub().val, loop_x(SharedSub, 1) if hasattr(SharedSub, "x") else None)
