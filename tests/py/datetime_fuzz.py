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
