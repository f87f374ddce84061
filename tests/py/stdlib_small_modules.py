# keyword, reprlib, copyreg and datetime from CPython's Lib.
import copyreg
import datetime as dt
import keyword
import reprlib

print(keyword.iskeyword("for"), keyword.iskeyword("match"), keyword.issoftkeyword("match"),
      len(keyword.kwlist), keyword.softkwlist)

r = reprlib.Repr()
r.maxlist = 3
print(r.repr(list(range(10))), reprlib.repr("x" * 100), reprlib.repr({i: i for i in range(10)}))
print(reprlib.repr(set(range(20))), reprlib.repr(tuple(range(8))), reprlib.repr(10 ** 50))


class Node:
    @reprlib.recursive_repr()
    def __repr__(self):
        return f"Node({self.child!r})"


n = Node()
n.child = n
print(repr(n))


class Point:
    def __init__(self, x, y):
        self.x, self.y = x, y


def reduce_point(p):
    return Point, (p.x, p.y)


copyreg.pickle(Point, reduce_point)
print(copyreg.dispatch_table[Point] is reduce_point)
print(copyreg.__newobj__(Point, 1, 2).__class__.__name__)
import copy
p2 = copy.deepcopy(Point(1, [2]))
print(p2.x, p2.y)

d = dt.date(2024, 2, 29)
print(d, d.isoformat(), d.weekday(), tuple(d.isocalendar()), d + dt.timedelta(days=1), d.toordinal())
print(dt.date.fromisoformat("2023-12-31"), dt.date.fromordinal(738000), d.replace(year=2028))
t = dt.datetime(2024, 3, 10, 14, 30, 15, 123456)
print(t, repr(t), t.isoformat(timespec="seconds"), t.strftime("%Y/%m/%d %H:%M:%S %a %b %j"))
print(t - dt.datetime(2024, 1, 1), (t - dt.datetime(2024, 1, 1)).total_seconds())
print(dt.timedelta(days=-1, seconds=5), dt.timedelta(hours=36) // dt.timedelta(hours=5), dt.timedelta(weeks=1) / 7)
tz = dt.timezone(dt.timedelta(hours=5, minutes=30), "IST")
a = dt.datetime(2024, 1, 1, 12, tzinfo=tz)
print(a, a.utcoffset(), a.tzname(), a.astimezone(dt.timezone.utc), a.timestamp())
print(dt.datetime.fromtimestamp(0, dt.timezone.utc), dt.datetime.fromisoformat("2011-11-04T00:05:23+04:00"))
print(dt.time(23, 59, 59, 999), dt.time.fromisoformat("12:34:56"), sorted([t, dt.datetime(2000, 1, 1)])[0])
