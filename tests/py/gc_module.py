# The gc module: collect, enable/disable/isenabled, get_count,
# get_threshold/set_threshold, callbacks, garbage. tmpy maps the numbers onto
# its own collector (the values differ from CPython's): only their shape and
# the effects are compared here.
import gc


class Node:
    def __init__(self):
        self.next = self


n = gc.collect()
print(type(n).__name__, n >= 0)
for _ in range(1000):
    Node()   # cycles: garbage
print(gc.collect() > 0)
print(gc.collect(0) >= 0, gc.collect(generation=2) >= 0)
try:
    gc.collect(5)
except ValueError as e:
    print("ValueError:", e)

print(gc.isenabled())
gc.disable()
print(gc.isenabled())
gc.enable()
print(gc.isenabled())

c = gc.get_count()
print(type(c).__name__, len(c), all(type(x) is int and x >= 0 for x in c))
t = gc.get_threshold()
print(type(t).__name__, len(t), all(type(x) is int and x > 0 for x in t))
gc.set_threshold(*t)
print(gc.get_threshold() == t)
gc.set_threshold(0)
print(gc.isenabled())
gc.set_threshold(t[0])
print(gc.isenabled())
try:
    gc.set_threshold()
except TypeError:
    print("TypeError")

phases = []


def cb(phase, info):
    phases.append((phase, sorted(info), info["generation"]))


gc.callbacks.append(cb)
gc.collect()
gc.callbacks.remove(cb)
gc.collect()
print(phases)
print(gc.garbage)
