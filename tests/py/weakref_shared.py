# CPython shares the plain (callback-less) ref and proxy of an object while
# it is alive; getweakrefcount/getweakrefs see only live weak references.
import gc
import weakref


class A:
    pass


def f():
    pass


a = A()
r1 = weakref.ref(a)
print(weakref.ref(a) is r1, weakref.ref(a, None) is r1)
r3 = weakref.ref(a, lambda w: None)
print(r3 is r1, weakref.getweakrefcount(a))
p1 = weakref.proxy(a)
print(weakref.proxy(a) is p1, weakref.proxy(a, None) is p1, weakref.getweakrefcount(a))
print(weakref.proxy(a, lambda w: None) is p1)


class R(weakref.ref):
    pass


s1 = R(a)
s2 = R(a)
print(s1 is s2, s1 is r1, weakref.getweakrefcount(a))
del s1, s2, r3
print(weakref.getweakrefcount(a))
print(sorted(type(w).__name__ for w in weakref.getweakrefs(a)))

# Refs dropped at once are not counted.
b = A()
for i in range(5):
    weakref.ref(b)
    weakref.ref(b, print)
print(weakref.getweakrefcount(b), weakref.getweakrefs(b))
x = weakref.ref(b)
print(weakref.getweakrefcount(b), weakref.getweakrefs(b) == [x])
for i in range(3):
    print(weakref.ref(b) is x)

# Callable referent: the shared proxy is the callable kind.
cp = weakref.proxy(f)
print(cp is weakref.proxy(f), type(cp).__name__, cp is weakref.ref(f))

# After the referent dies the shared ref is dead; a new referent gets a new one.
c = A()
rc = weakref.ref(c)
del c
gc.collect()
print(rc() is None)
c2 = A()
print(weakref.ref(c2) is rc, weakref.ref(c2)() is c2)

# Many objects, each with its own shared ref.
objs = [A() for i in range(200)]
refs = [weakref.ref(o) for o in objs]
print(all(weakref.ref(o) is r for o, r in zip(objs, refs)))
print(len(set(map(id, refs))))
print(sum(weakref.getweakrefcount(o) for o in objs[:20]))
print(weakref.getweakrefcount(1), weakref.getweakrefs(1))
