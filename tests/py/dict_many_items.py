d = {}
for i in range(10000):
    d[i * 7 % 10007] = i
print(len(d), d[7], d[70], sum(d.values()), min(d), max(d))
for i in range(0, 10000, 2):
    del d[i * 7 % 10007]
print(len(d), list(d)[:5], list(d.values())[:5])
s = {f"key{i}": i for i in range(5000)}
print(len(s), s["key4999"], sum(1 for k in s if k.endswith("7")), "key5000" in s)
