# threading.local subclasses that define __eq__ (which makes them
# unhashable) or __hash__ still keep per-thread attributes: the local
# machinery must never hash or compare the local object itself.
import threading


class Unhashable(threading.local):
    def __init__(self, v):
        self.v = v

    def __eq__(self, other):
        return isinstance(other, Unhashable) and self.v == other.v


class Noisy(threading.local):
    calls = 0

    def __hash__(self):
        Noisy.calls += 1
        return 1

    def __eq__(self, other):
        Noisy.calls += 1
        return True


a, b = Unhashable(3), Noisy()
a.v = 10
b.x = "main"
seen = []


def worker(k):
    seen.append((k, a.v, hasattr(b, "x")))
    a.v = k
    b.x = k
    seen.append((k, a.v, b.x))


threads = [threading.Thread(target=worker, args=(k,)) for k in range(3)]
for t in threads:
    t.start()
for t in threads:
    t.join()
print(sorted(seen))
print(a.v, b.x, a == a, Noisy.calls)
