# weakref.py's containers, WeakMethod and finalize (tmpy's own lib/weakref.py).
import weakref, gc
class A:
    def __init__(self, n): self.n = n
    def m(self): return self.n
    def __repr__(self): return "A(%d)" % self.n
objs = [A(i) for i in range(10)]
d = weakref.WeakValueDictionary()
for i, o in enumerate(objs): d[i] = o
print(len(d), sorted(d.keys()) == list(range(10)))
del objs[::2]
gc.collect()
print(len(d), sorted(d.keys()))
print(d[1], d.get(0), 1 in d, 0 in d)
k = weakref.WeakKeyDictionary()
keys = [A(i) for i in range(6)]
for kk in keys: k[kk] = kk.n * 10
print(len(k))
del keys[:3]
gc.collect()
print(len(k), sorted(v for v in k.values()))
s = weakref.WeakSet(keys)
print(len(s), keys[0] in s)
keys.pop()
gc.collect()
print(len(s), sorted(x.n for x in s))
# iteration while entries die
it = A(100)
d2 = weakref.WeakValueDictionary({i: A(i) for i in range(5)})
d2["it"] = it
for kk, v in d2.items():
    gc.collect()
print(len(d2), list(d2.keys()))
# WeakMethod
a = A(7)
wm = weakref.WeakMethod(a.m)
print(wm()(), wm() == a.m)
del a
gc.collect()
print(wm())
# finalize
log = []
b = A(3)
f = weakref.finalize(b, log.append, "fin b")
print(f.alive)
del b
gc.collect()
print(log, f.alive)
c = A(4)
f2 = weakref.finalize(c, print, "called explicitly")
f2()
f2()
print(f2.alive)
e = A(5)
weakref.finalize(e, print, "at exit")
r = weakref.ref(e)
print(weakref.getweakrefcount(e), len(weakref.getweakrefs(e)))
p = weakref.proxy(e)
print(p.n, p.m(), isinstance(p, weakref.ProxyTypes))
print(weakref.ref(e) == weakref.ref(e), hash(weakref.ref(e)) == hash(e))
# | |= and the reflected |: shared by both dictionaries (both keep only live entries)
ka, kb = A(1), A(2)
wk = weakref.WeakKeyDictionary({ka: 1})
wk2 = wk | {kb: 2}
print(type(wk2).__name__, sorted(v for v in wk2.values()), len(wk))
wk |= {kb: 3}
print(sorted(wk.values()))
wv = weakref.WeakValueDictionary({"a": ka})
u = {"b": kb} | wv
print(type(u).__name__, sorted(u.keys()))
print(sorted((wv | {"b": kb}).keys()), wk.__or__(5), repr(wv).startswith("<WeakValueDictionary at 0x"))
wv.clear(); wk.clear()
print(len(wv), len(wk), list(wv), list(wk))
