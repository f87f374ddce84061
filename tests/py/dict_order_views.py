d = {}
for k in ["z", "a", "m", "b"]:
    d[k] = len(d)
print(list(d), d)
del d["a"]; d["a"] = 99; print(list(d.items()))
ks, vs, its = d.keys(), d.values(), d.items()
d["new"] = 0
print(list(ks), list(vs), list(its), len(ks))
print(sorted(ks - {"z"}), sorted(ks | {"q"}), ("m", 1) in its, 99 in vs)
print(sorted(d), sorted(d, key=d.get), min(d.items(), key=lambda kv: kv[1]))
inv = {v: k for k, v in d.items()}; print(inv)
try:
    for k in d:
        d["x" + k] = 1
except RuntimeError as e:
    print("RuntimeError:", e)
e = dict(zip("abc", range(3))); e.update(b=10); print(e, {**e, "a": -1})
print(dict(sorted(e.items(), reverse=True)), list(reversed(e.keys())))
