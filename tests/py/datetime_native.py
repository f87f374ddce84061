# The native _datetime module (vm/modules/datetime*.c): datetime.py takes its
# classes from it. Values, reprs, errors, arithmetic, time zones, fold,
# pickles and subclasses, compared with CPython's C module.
import datetime as dtmod
import pickle
import _datetime
from datetime import date, datetime, time, timedelta, timezone, tzinfo, MINYEAR, MAXYEAR, UTC

print(date is _datetime.date, MINYEAR, MAXYEAR, UTC is timezone.utc, _datetime.__doc__)
print(date.__module__, datetime.__qualname__, type(timezone.utc).__name__)


def err(f, *a, **k):
    try:
        r = f(*a, **k)
    except Exception as e:
        return f"{type(e).__name__}: {e}"
    return repr(r)


# ---- timedelta ----
print(repr(timedelta()), repr(timedelta(1, 2, 3)), repr(timedelta(microseconds=-1)))
print(timedelta(days=-1, seconds=5), timedelta(2, 3661, 5), timedelta(weeks=1, hours=-1, minutes=1.5, milliseconds=2.5))
print(timedelta(1.5, 0.3, 1.7), timedelta(microseconds=0.5), timedelta(microseconds=1.5), timedelta(microseconds=-0.5))
print(timedelta.min, timedelta.max, timedelta.resolution, repr(timedelta.max))
td = timedelta(days=3, hours=4, microseconds=9)
print(td.days, td.seconds, td.microseconds, td.total_seconds(), bool(td), bool(timedelta(0)))
print(td * 3, 3 * td, td * 0.5, td * -1.25, td / 2, td / 0.3, td // 7, td / timedelta(hours=1), td // timedelta(hours=5))
print(td % timedelta(hours=5), divmod(td, timedelta(hours=5)), -td, +td, abs(-td), td - td, td + td)
print(td == timedelta(3, 14400, 9), td < timedelta(4), td != 5, hash(td) == hash(timedelta(3, 14400, 9)))
print(err(timedelta, days=10 ** 9), err(timedelta, "1"), err(lambda: td / 0), err(lambda: td < 5))
print(err(lambda: timedelta.max + timedelta(1)), err(lambda: td * 1e20), err(timedelta, 1e300))
print(timedelta(microseconds=2 ** 62), timedelta(seconds=10 ** 12 - 1).days)

# ---- date ----
d = date(2024, 2, 29)
print(d, repr(d), d.year, d.month, d.day, d.toordinal(), d.weekday(), d.isoweekday(), d.ctime())
ic = d.isocalendar()
print(ic, ic.year, ic.week, ic.weekday, tuple(ic), pickle.loads(pickle.dumps(ic)))
for y, m, dd in [(2004, 1, 1), (2005, 1, 1), (2008, 12, 29), (2010, 1, 3), (9999, 12, 31), (1, 1, 1)]:
    print(date(y, m, dd).isocalendar(), date.fromisocalendar(*date(y, m, dd).isocalendar()))
print(d + timedelta(days=1, hours=23), timedelta(1) + d, d - timedelta(366), d - date(2000, 1, 1))
print(date.fromordinal(1), date.fromordinal(738000), date.min, date.max, date.resolution)
print(d.replace(day=1), d.replace(year=2023, day=28), d.timetuple())
print(d.strftime("%Y/%m/%d %a %b %j %%"), format(d, "%d.%m.%Y"), format(d), f"{d}")
for s in ["2024-02-29", "20240229", "2024-W09-4", "2024W094", "2024-W09", "2024W09"]:
    print(s, date.fromisoformat(s))
for s in ["2023-02-29", "2024-2-29", "2024-02-29T00", "", "2024-W54", "２０２４-01-01"]:
    print(repr(s), err(date.fromisoformat, s))
print(err(date, 2024, 13, 1), err(date, 0, 1, 1), err(date, 2024, 2, 30), err(date, 2024.0, 1, 1))
print(err(date, 2 ** 40, 1, 1), err(date.fromordinal, 0), err(date.fromordinal, 3652060))
print(err(date.fromisocalendar, 2019, 53, 1), err(date.fromisocalendar, 2019, 1, 8), err(date.fromisoformat, 5))
print(err(lambda: date.max + timedelta(1)), err(lambda: date.min - timedelta(1)), err(lambda: d + 1))
print(d == date(2024, 2, 29), d < date(2024, 3, 1), d >= date(2025, 1, 1), d == "x", err(lambda: d < 1))

# ---- time ----
t = time(12, 30, 5, 123)
print(t, repr(t), repr(time()), repr(time(1, 2, 3)), t.hour, t.minute, t.second, t.microsecond, t.tzinfo, t.fold)
for spec in ["auto", "hours", "minutes", "seconds", "milliseconds", "microseconds"]:
    print(spec, t.isoformat(spec), time(1).isoformat(timespec=spec))
print(err(t.isoformat, "nanos"), t.replace(hour=1), t.replace(fold=1).fold, repr(t.replace(fold=1)))
print(t.strftime("%H-%M-%S.%f %p"), format(t, "%I"), bool(time()), time.min, time.max, time.resolution)
for s in ["12", "12:30", "1230", "12:30:05", "123005", "12:30:05.5", "12:30:05,123456789", "T12:30",
          "12:30Z", "12:30+01", "12:30-0130", "12:30:05.123+05:30:15.5"]:
    print(s, repr(time.fromisoformat(s)))
for s in ["1", "24:00", "12:3", "12:30:05.", "12:30+24:00", "12:30+1"]:
    print(repr(s), err(time.fromisoformat, s))
print(err(time, 24), err(time, 0, 60), err(time, 0, 0, 60), err(time, 0, 0, 0, 10 ** 6), err(time, fold=2))
print(err(time, tzinfo=1), err(time, 1, 2, 3, "4"))

# ---- timezone ----
est = timezone(timedelta(hours=-5), "EST")
ist = timezone(timedelta(hours=5, minutes=30))
odd = timezone(-timedelta(hours=1, seconds=5, microseconds=6))
print(repr(time(1, tzinfo=est, fold=1)), repr(datetime(2000, 1, 1, tzinfo=est, fold=1)))   # the orders differ
print(est, repr(est), ist, repr(ist), odd, repr(timezone.utc), timezone.utc, timezone.min, timezone.max)
print(est.utcoffset(None), est.dst(None), est.tzname(None), ist.tzname(None), timezone(timedelta(0)) is timezone.utc)
print(est == timezone(timedelta(hours=-5)), hash(est) == hash(timezone(timedelta(hours=-5))), est != ist)
print(err(timezone, 5), err(timezone, timedelta(hours=24)), err(timezone, timedelta(0), 5), err(est.utcoffset, 5))
print(err(est.fromutc, datetime(2020, 1, 1)), err(lambda: est < ist), est.__getinitargs__(), est.__reduce__())
print(err(tzinfo().utcoffset, None), err(tzinfo().tzname, None), err(tzinfo().dst, None))

# ---- datetime ----
dt = datetime(2024, 3, 10, 2, 30, 15, 250000)
print(dt, repr(dt), repr(datetime(2000, 1, 1)), dt.date(), dt.time(), dt.timetz(), dt.ctime(), dt.timetuple())
print(dt.isoformat(), dt.isoformat(" "), dt.isoformat("x", "minutes"), dt.isoformat(timespec="milliseconds"))
print(err(dt.isoformat, "ab"), err(dt.isoformat, 5), dt.strftime("%Y-%m-%dT%H:%M:%S.%f[%z][%Z]"), f"{dt:%c}")
print(datetime.combine(d, t), repr(datetime.combine(d, time(1, tzinfo=est))), datetime.combine(d, t, tzinfo=ist))
print(dt.replace(year=2000, tzinfo=est), dt.replace(microsecond=0, fold=1).fold, datetime.min, datetime.max)
print(dt + timedelta(hours=22), dt - timedelta(days=70000), dt - datetime(2000, 1, 1), datetime.max - datetime.min)
print(err(lambda: datetime.max + timedelta(microseconds=1)), err(lambda: dt - datetime(2000, 1, 1, tzinfo=est)))
for s in ["2024-03-10T02:30:15.250000", "2024-03-10 02:30", "20240310T0230", "2024-W10-7T02:30Z",
          "2024-03-10T02:30:15+05:30", "2024-03-10", "2024-03-10\u00e902:30", "2024W107T02"]:
    print(s, repr(datetime.fromisoformat(s)))
for s in ["2024-03-10T", "2024-03-10T25:00", "2024-03-1002:30", "2024-03-10T02:30+24:30"]:
    print(repr(s), err(datetime.fromisoformat, s))
print(err(datetime, 2024, 1, 1, 24), err(datetime, 2024, 1, 1, tzinfo="x"))

# aware arithmetic and comparison
a = datetime(2020, 5, 17, 12, tzinfo=est)
b = datetime(2020, 5, 17, 17, tzinfo=timezone.utc)
print(a == b, hash(a) == hash(b), a - b, a.astimezone(ist), b.astimezone(est), a.utctimetuple(), a.timestamp())
print(a.utcoffset(), a.dst(), a.tzname(), datetime(2020, 1, 1).utcoffset(), err(lambda: a < datetime(2020, 1, 1)))
print(a == datetime(2020, 5, 17, 12), a != datetime(2020, 5, 17, 12), err(lambda: a - datetime(2020, 1, 1)))
print(datetime.fromtimestamp(0, timezone.utc), datetime.fromtimestamp(1e9 + 0.5, est), datetime.utcfromtimestamp(86399.9999995))
print(datetime.fromtimestamp(-1.5, timezone.utc), err(datetime.fromtimestamp, float("nan")), err(datetime.fromtimestamp, 1e20))
print(datetime(2020, 1, 1, tzinfo=timezone.utc).timestamp(), datetime.strptime("2020-01-02 03:04:05", "%Y-%m-%d %H:%M:%S"))
print(datetime.strptime("+0130 x", "%z x"), date(2020, 1, 1) == datetime(2020, 1, 1), datetime(2020, 1, 1) == date(2020, 1, 1))
print(err(lambda: date(2020, 1, 1) < datetime(2020, 1, 1)), date(2020, 1, 1).__eq__(datetime(2020, 1, 1)))


# a tzinfo with a fold: UTC-5 standard, UTC-4 from 2020-03-08 02:00 to 2020-11-01 02:00 (local)
class Eastern(tzinfo):
    def utcoffset(self, dt):
        return timedelta(hours=-5) + self.dst(dt)

    def dst(self, dt):
        if dt is None:
            return timedelta(0)
        start = datetime(2020, 3, 8, 2)
        end = datetime(2020, 11, 1, 1)
        naive = dt.replace(tzinfo=None)
        if start <= naive < end or (naive.replace(fold=0) == end and not dt.fold):
            return timedelta(hours=1)
        return timedelta(0)

    def tzname(self, dt):
        return "EDT" if self.dst(dt) else "EST"

    def __repr__(self):
        return "Eastern()"


E = Eastern()
f0 = datetime(2020, 11, 1, 1, 30, tzinfo=E)
f1 = f0.replace(fold=1)
print(f0.utcoffset(), f1.utcoffset(), f0 == f1, f0.tzname(), f1.tzname(), repr(f1))
u = datetime(2020, 11, 1, 5, 30, tzinfo=timezone.utc)
print(u.astimezone(E), (u + timedelta(hours=1)).astimezone(E), f0.astimezone(timezone.utc), f1.astimezone(timezone.utc))
print(f0 == f0.astimezone(timezone.utc), f1 == f1.astimezone(timezone.utc), hash(f0) == hash(f1.replace(fold=0)))
print(E.fromutc(datetime(2020, 7, 1, 12, tzinfo=E)), err(E.fromutc, datetime(2020, 7, 1)), err(E.fromutc, 5))

# ---- pickles ----
class Off(tzinfo):
    def __init__(self, minutes=0, name=""):
        self.m, self.name = minutes, name

    def utcoffset(self, dt):
        return timedelta(minutes=self.m)

    def tzname(self, dt):
        return self.name

    def dst(self, dt):
        return timedelta(0)

    def __repr__(self):
        return f"Off({self.m}, {self.name!r})"


objs = [td, timedelta.min, d, date.max, t, time(1, 2, tzinfo=est), f1, dt, datetime.max, est, timezone.utc,
        datetime(2020, 1, 1, tzinfo=Off(90, "X")), time(23, 59, 59, 999999, fold=1)]
for o in objs:
    for proto in range(pickle.HIGHEST_PROTOCOL + 1):
        o2 = pickle.loads(pickle.dumps(o, proto))
        assert o2 == o and type(o2) is type(o), (o, proto)
        if hasattr(o, "fold"):   # the fold survives from protocol 4
            assert o2.fold == (o.fold if proto > 3 else 0), (o, proto)
            assert repr(o2) == repr(o.replace(fold=o2.fold)), (o, proto)
        else:
            assert repr(o2) == repr(o), (o, proto)
print(pickle.loads(pickle.dumps(timezone.utc)) is timezone.utc, d.__reduce__(), t.__reduce__(), f1.__reduce_ex__(4))
print(dt.__reduce_ex__(2), td.__reduce__(), date(b"\x07\xd0\x01\x02"), repr(datetime(b"\x07\xd0\x81\x02\x03\x04\x05\x00\x00\x06")))
print(err(datetime, bytes([1] * 10), "EST"), err(date, b"19\x095"), repr(time(b"\x81\x02\x03\x00\x00\x04")))


# ---- subclasses ----
class MyDate(date):
    def __new__(cls, y, m, d, extra="x"):
        self = super().__new__(cls, y, m, d)
        self.extra = extra
        return self


class MyDT(datetime):
    label = "mine"

    def isoformat(self, sep="T", timespec="auto"):
        return "<" + super().isoformat(sep, timespec) + ">"


class MyTD(timedelta):
    pass


class MyTime(time):
    pass


md = MyDate(2020, 2, 2, "y")
print(repr(md), md.extra, type(md + timedelta(1)).__name__, (md + timedelta(1)).extra, type(md.replace(day=3)).__name__)
print(type(MyDate.fromordinal(5)).__name__, type(MyDate.fromisoformat("2020-01-01")).__name__, md == date(2020, 2, 2))
m = MyDT(2020, 1, 1, 12, tzinfo=est)
print(repr(m), str(m), m.label, type(m + timedelta(1)).__name__, type(m - timedelta(1)).__name__, m - m)
print(type(MyDT.now()).__name__, type(MyDT.combine(d, t)).__name__, type(MyDT.fromtimestamp(0, est)).__name__)
print(type(m.astimezone(ist)).__name__, type(m.replace(hour=1)).__name__, type(MyDT.strptime("2020", "%Y")).__name__)
print(repr(MyTD(1, 2)), type(MyTD(1) + MyTD(1)).__name__, type(-MyTD(1)).__name__, MyTD(5) > timedelta(4))
print(repr(MyTime(1, 2)), type(MyTime.fromisoformat("01:02")).__name__, isinstance(m, date), issubclass(MyDT, date))
print(pickle.loads(pickle.dumps(m)) == m, type(pickle.loads(pickle.dumps(m))).__name__, m.__dict__)
print(sorted([date(2020, 1, 3), MyDate(2020, 1, 1), date(2020, 1, 2)]), {date(2020, 1, 1): 1}[MyDate(2020, 1, 1)])
print(err(type, "T", (timezone,), {}))
