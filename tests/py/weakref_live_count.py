# getweakrefcount/getweakrefs see only live weak references (tmpy, unlike
# CPython, does not share one plain ref per object: the refs here all have
# callbacks or are subclass instances, which CPython never shares either).
import gc
import weakref


class A:
    pass


class R(weakref.ref):
    pass


def cb(w):
    pass


a = A()
r1 = weakref.ref(a, cb)
r2 = weakref.ref(a, cb)
print(r1 is r2, r1 == r2, weakref.getweakrefcount(a))
s1 = R(a)
s2 = R(a)
print(s1 is s2, type(s1).__name__, weakref.getweakrefcount(a))
del s1, s2, r2
print(weakref.getweakrefcount(a), weakref.getweakrefs(a) == [r1])

# Refs dropped at once are not counted.
b = A()
for i in range(5):
    weakref.ref(b, print)
    R(b)
print(weakref.getweakrefcount(b), weakref.getweakrefs(b))
x = weakref.ref(b, cb)
print(weakref.getweakrefcount(b), weakref.getweakrefs(b) == [x])

# After the referent dies its refs are dead and nothing counts them.
c = A()
rc = weakref.ref(c, cb)
del c
gc.collect()
print(rc() is None)

# Many objects, each with its own refs.
objs = [A() for i in range(200)]
refs = [weakref.ref(o, cb) for o in objs]
print(all(r() is o for o, r in zip(objs, refs)), len(set(map(id, refs))))
print(sum(weakref.getweakrefcount(o) for o in objs[:20]))
print(weakref.getweakrefcount(1), weakref.getweakrefs(1))
# Equal refs hash alike, whether or not they are the same object.
print(hash(weakref.ref(a)) == hash(weakref.ref(a)), weakref.ref(a) == weakref.ref(a))
