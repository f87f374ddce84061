# collections imports without _collections (as test.support's import_fresh_module(..., blocked=[...])
# makes it, for the pure-Python variants of test_ordered_dict): OrderedDict, defaultdict, Counter
# and ChainMap work on their Python fallbacks; deque is absent, as in CPython's (tmpy's defaultdict,
# a Python class, stays).
import sys

saved = {k: sys.modules.pop(k) for k in ["collections", "collections.abc", "_collections"] if k in sys.modules}
sys.modules["_collections"] = None
try:
    import collections as pycoll
finally:
    del sys.modules["_collections"]
    for k in ["collections", "collections.abc"]:
        sys.modules.pop(k, None)
    sys.modules.update(saved)

print(hasattr(pycoll, "deque"))
OD = pycoll.OrderedDict
od = OD.fromkeys("abcde")
od.move_to_end("b")
od.move_to_end("d", last=False)
print(list(od))
print(od.popitem(), od.popitem(last=False), list(od))
for call in (lambda: od.move_to_end("zz"), lambda: OD().popitem(), lambda: OD().popitem(last=False)):
    try:
        call()
    except KeyError as e:
        print("KeyError", repr(e))
od["self"] = od
print(repr(od))
print(sorted(pycoll.Counter("abracadabra").items()))
cm = pycoll.ChainMap({"a": 1})
cm["cm"] = cm
print(repr(cm))
