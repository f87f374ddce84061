d = {"a": 1, "b": 2}
d["c"] = 3; d["a"] = 10
print(d, len(d), d["b"], d.get("z"), d.get("z", 0), "a" in d, "z" not in d)
print(list(d.keys()), list(d.values()), list(d.items()))
print(d.pop("b"), d.pop("zz", None), d, d.setdefault("e", 5), d.setdefault("a", 0), d)
d.update({"f": 6}, g=7); d.update([("h", 8)]); print(d)
print(d.popitem(), d)
del d["a"]; print(d, dict.fromkeys("xy", 0), {k: v for k, v in zip("abc", range(3))})
e = {1: "one", 2.0: "two", (3, 4): "tuple", None: "none", True: "true"}
print(e, e[1], e[2], e[(3, 4)])
try:
    d["missing"]
except KeyError as ex:
    print("KeyError", ex, repr(ex))
print({**{"x": 1}, "y": 2, **{"x": 3}}, d | {"q": 0}, dict(a=1, b=2), dict([(1, 2)]))
m = {}
for w in "the quick brown fox jumps over the lazy dog the end".split():
    m[w] = m.get(w, 0) + 1
print(m, sorted(m.items(), key=lambda kv: (-kv[1], kv[0]))[:3])
print({1: 2} == {1: 2}, {1: 2} != {1: 3}, len({}), bool({}), list(reversed({"a": 1, "b": 2})))
x = {"k": []}; x["k"].append(1); x["self"] = x; print(x)
dk = {"a": 1, "b": 2}.keys(); print(dk, dk & {"a", "z"}, "a" in dk, len(dk))
dd = dict(d); dd.clear(); print(dd, d.copy() == d)
it = iter({"a": 1})
print(next(it))
