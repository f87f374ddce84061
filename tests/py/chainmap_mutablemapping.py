# ChainMap is a MutableMapping as CPython's: keys()/items()/values() are set-like views (Jinja2
# subtracts its globals' keys from a set), update() and setdefault() from the mixin
from collections import ChainMap
from collections.abc import MutableMapping, KeysView, ItemsView, ValuesView

base = {"a": 1, "b": 2}
cm = ChainMap({"c": 3}, base)
print(isinstance(cm, MutableMapping), type(cm.keys()).__name__, isinstance(cm.keys(), KeysView))
print({"a", "z"} - cm.keys(), sorted(cm.keys() & {"a", "c", "q"}), sorted(cm.keys()))
print(sorted(cm.items()), sorted(cm.values()), isinstance(cm.items(), ItemsView), isinstance(cm.values(), ValuesView))
cm.update({"d": 4}, e=5)
cm.update([("f", 6)])
print(cm.maps[0] == {"c": 3, "d": 4, "e": 5, "f": 6}, base)
print(cm.setdefault("a", 9), cm.setdefault("g", 7), cm.maps[0]["g"])
print(cm == dict(cm), cm.get("zz", "dflt"), len(cm), "a" in cm)
