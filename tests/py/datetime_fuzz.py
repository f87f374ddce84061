# Random datetimes (naive and aware, odd offsets, folds) and timedeltas through arithmetic,
# comparisons, formatting and conversions: every result as CPython's C _datetime gives it.
import random
from datetime import *
rnd = random.Random(7)
def rd():
    return datetime(rnd.randint(1, 9999), rnd.randint(1, 12), rnd.randint(1, 28), rnd.randint(0, 23), rnd.randint(0, 59), rnd.randint(0, 59), rnd.choice([0, rnd.randint(0, 999999)]),
                    tzinfo=rnd.choice([None, timezone.utc, timezone(timedelta(minutes=rnd.randint(-1439, 1439))), timezone(timedelta(seconds=rnd.randint(-86399, 86399), microseconds=rnd.randint(0,999999)))]), fold=rnd.randint(0, 1))
def rt():
    return timedelta(rnd.uniform(-1e6, 1e6), rnd.randint(-10**6, 10**6), rnd.randint(-10**7, 10**7))
def tr(f):
    try: return repr(f())
    except Exception as e: return type(e).__name__ + ": " + str(e)
for i in range(400):
    a, b, t, u = rd(), rd(), rt(), rt()
    x = rnd.choice([2, -3, 0.5, 1.7, -0.25, 1e-3, 7])
    print(tr(lambda: a + t), tr(lambda: a - b), tr(lambda: a < b), a == b, tr(lambda: t * x), tr(lambda: t / x), tr(lambda: t // u), tr(lambda: t % u), tr(lambda: divmod(t, u)),
          a.isoformat(), str(a), datetime.fromisoformat(a.isoformat()) == a, repr(a.date().isocalendar()), a.strftime("%Y %j %U %W %z %Z %f"), tr(lambda: t / u),
          a.timetuple()[:], tr(lambda: a.utctimetuple()[:]), tr(lambda: a.timestamp()) if a.tzinfo else '', tr(lambda: a.astimezone(timezone.utc)), a.toordinal(), a.weekday(), repr(t), str(t), t.total_seconds(),
          (hash(a) == hash(b)) == (a == b) or a != b, tr(lambda: a.time() < b.time()), tr(lambda: a.timetz() == b.timetz()), repr(a.timetz()))


# fromisoformat on mangled ISO strings: accepted and refused as CPython's C parser does
rnd = random.Random(3)
alpha = "0123456789-:T+Z.,W "
base = ["2024-03-10T02:30:15.250000+05:30", "20240310T023015,5Z", "2024-W10-7T02", "2024W107", "12:30:45.123456-08:00", "2024-03-10", "T12:30", "1230", "2024-03-10 12"]
def parse(f, s):
    try: return repr(f(s))
    except Exception as e: return type(e).__name__
for i in range(1500):
    s = list(rnd.choice(base))
    for _ in range(rnd.randint(0, 3)):
        op = rnd.randint(0, 2); p = rnd.randint(0, len(s))
        if op == 0 and s: s.pop(min(p, len(s) - 1))
        elif op == 1: s.insert(p, rnd.choice(alpha))
        elif s: s[min(p, len(s) - 1)] = rnd.choice(alpha)
    s = "".join(s)
    print(repr(s), parse(datetime.fromisoformat, s), parse(date.fromisoformat, s), parse(time.fromisoformat, s))
