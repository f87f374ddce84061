# Keyword arguments passed with ** to C functions that allocate before they
# read them: dict(m, **kw) and d.update(m, **kw) once kept the keyword names
# in a C variable across the update's allocations, and lost the keywords
# when a collection moved them (1 call in ~1,000 with a small nursery).
BASE = {"range": range, "dict": dict, "len": len, "a": 1, "b": 2, "c": 3}
KW = {"foo": "<foo>", "bar": 7}

lost = 0
sizes = set()
for i in range(3000):
    junk = [str(j) * (i % 5) for j in range(i % 40)]
    d = dict(BASE, **KW)
    e = {}
    e.update(BASE, **KW)
    f = dict(zip("xyz", range(3)), **KW)
    for m in (d, e, f):
        if "foo" not in m or m.get("bar") != 7:
            lost += 1
    sizes.add((len(d), len(e), len(f)))
print("lost", lost, "sizes", sorted(sizes))
print(sorted(dict(BASE, **KW))[:4])
