# Threads pickling and unpickling at once (the C _pickle): shared input
# structures, each thread's own picklers and unpicklers, classes found by
# find_class while other threads do the same; every result checked.
import io
import pickle
import threading


class Point:
    def __init__(self, x, y):
        self.x, self.y = x, y

    def __eq__(self, other):
        return type(other) is Point and (self.x, self.y) == (other.x, other.y)


SHARED = {"points": [Point(i, -i) for i in range(30)], "text": ["w%d" % i for i in range(50)],
          "nested": [[i, (i, str(i)), {i: [i] * 3}] for i in range(20)], "set": set(range(40))}
SHARED["self"] = SHARED
errors = []


def worker(n):
    try:
        for i in range(40):
            proto = (n + i) % (pickle.HIGHEST_PROTOCOL + 1)
            blob = pickle.dumps(SHARED, proto)
            back = pickle.loads(blob)
            if back["self"] is not back or back["points"] != SHARED["points"] or back["set"] != SHARED["set"]:
                errors.append((n, i, "mismatch"))
            f = io.BytesIO()
            p = pickle.Pickler(f, proto)
            p.dump([n, i, SHARED["text"]])
            p.dump(SHARED["nested"])
            f.seek(0)
            u = pickle.Unpickler(f)
            first, second = u.load(), u.load()
            if first[:2] != [n, i] or second != SHARED["nested"]:
                errors.append((n, i, "stream"))
    except Exception as e:
        errors.append((n, repr(e)))


threads = [threading.Thread(target=worker, args=(n,)) for n in range(4)]
for t in threads:
    t.start()
for t in threads:
    t.join()
print("errors:", errors)
print(pickle.loads(pickle.dumps(SHARED, 4))["points"][29].y)
