from collections import deque, defaultdict, Counter, OrderedDict, namedtuple
d = deque([1, 2, 3]); d.appendleft(0); d.append(4); d.rotate(1)
print(d, d.popleft(), d.pop(), len(d), list(d), d[0], d[-1])
q = deque(maxlen=3)
for i in range(6):
    q.append(i)
print(q, list(q), q.maxlen)
dd = defaultdict(int)
for ch in "mississippi":
    dd[ch] += 1
print(sorted(dd.items()), dd["zz"], len(dd))
g = defaultdict(list); g["a"].append(1); g["a"].append(2); print(dict(g))
c = Counter("abracadabra")
print(c.most_common(3), c["a"], c["q"], sum(c.values()), sorted(c.elements())[:5])
c.update("aaz"); print(c["a"], c["z"]); c.subtract({"a": 10}); print(c["a"])
print(Counter([1, 1, 2]) + Counter([2, 3]), Counter(a=3) - Counter(a=1))
od = OrderedDict(); od["x"] = 1; od["y"] = 2; od["z"] = 3; od.move_to_end("x")
print(list(od), od.popitem(), od.popitem(last=False), od)
Point = namedtuple("Point", ["x", "y"])
p = Point(1, y=2)
print(p, p.x + p.y, p[0], p._asdict(), p._replace(x=9), Point._fields, tuple(p), p == (1, 2))
x, y = p; print(x, y, isinstance(p, tuple), len(p))
Emp = namedtuple("Emp", "name age", defaults=[30])
print(Emp("bob"), Emp("al", 5))
