# itertools.tee: copies share one buffer, tee of a copyable iterator passes it through, the tee type
# is constructible and copyable, and a next() that re-enters the shared iterator (from its own
# __next__ here; from another thread in test_itertools' test_tee_concurrent) raises RuntimeError
# instead of reading the iterator twice at once (the generator version hung).
import copy
import threading
from itertools import tee

a, b, c = tee(range(200), 3)
print([next(a) for _ in range(70)][-3:], list(b)[-3:], next(c), list(a)[:2], len(list(c)))
a, b = tee("abc")
c, d = tee(a)
print(a is c, list(copy.copy(a)), list(d), list(a), list(b))
t = type(a)
print(t.__name__, list(t("def")), list(t(iter("xyz"))))
for bad in ((), (10,)):
    try:
        t(*bad)
    except TypeError:
        print("TypeError")
print(tee("ab", 0), [list(x) for x in tee("ab", 1)])
for n in (-1, "x"):
    try:
        tee([], n)
    except (TypeError, ValueError) as e:
        print(type(e).__name__, e)


class Reenter:
    def __init__(self):
        self.first = True

    def __iter__(self):
        return self

    def __next__(self):
        if self.first:
            self.first = False
            try:
                return next(self.copy)
            except RuntimeError as e:
                print("RuntimeError", e)
        return 1


r = Reenter()
x, r.copy = tee(r)
print(next(x), next(r.copy), next(x))

# two threads: the second next() finds the first still reading
start, finish = threading.Event(), threading.Event()


class Slow:
    def __iter__(self):
        return self

    def __next__(self):
        start.set()
        finish.wait()
        return 5


p, q = tee(Slow())
th = threading.Thread(target=next, args=[p])
th.start()
start.wait()
try:
    next(q)
except RuntimeError as e:
    print("RuntimeError", e)
finally:
    finish.set()
    th.join()
print(next(q))
