# _datetime values made, hashed and compared by several threads at once (under
# STM each thread's transactions allocate and read them): the results must not
# depend on the interleaving.
import threading
from datetime import date, datetime, timedelta, timezone

results = {}
shared = {}
lock = threading.Lock()


def work(k):
    tz = timezone(timedelta(hours=k - 2))
    d = datetime(2020, 1, 1, tzinfo=tz)
    acc = timedelta(0)
    seen = set()
    for i in range(3000):
        e = d + timedelta(hours=i, microseconds=k)
        acc += e - d
        seen.add(e.date())
        if i % 500 == 0:
            with lock:
                shared[e.astimezone(timezone.utc).replace(microsecond=0)] = k
    results[k] = (str(acc), len(seen), min(seen).isoformat(), max(seen).isoformat(), e.isoformat())


threads = [threading.Thread(target=work, args=(k,)) for k in range(4)]
for t in threads:
    t.start()
for t in threads:
    t.join()
for k in sorted(results):
    print(k, results[k])
print(len(shared), sorted(shared)[:2], date(2020, 1, 1) in {d.date() for d in shared})
