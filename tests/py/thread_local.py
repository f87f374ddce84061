# threading.local: attributes are per thread; a subclass's __init__ runs
# again in every thread with the constructor's arguments.
import threading

data = threading.local()
data.x = "main"
results = {}
lock = threading.Lock()


def worker(i):
    before = hasattr(data, "x")
    data.x = i
    data.items = [i] * 3
    # yield to others a few times, then check our value is still ours
    for _ in range(200):
        pass
    ok = data.x == i and data.items == [i] * 3
    with lock:
        results[i] = (before, ok)


ts = [threading.Thread(target=worker, args=(i,)) for i in range(8)]
for t in ts:
    t.start()
for t in ts:
    t.join()
print("per thread", sorted(results.items()))
print("main still", data.x, hasattr(data, "items"))

try:
    data.missing
except AttributeError as e:
    print("AttributeError", e)
del data.x
print("deleted", hasattr(data, "x"))


class Config(threading.local):
    created = 0

    def __init__(self, name, level=1):
        self.name = name
        self.level = level
        with lock:
            Config.created += 1

    def describe(self):
        return "%s:%d" % (self.name, self.level)


cfg = Config("app", level=3)
cfg.level = 10
seen = []


def use_cfg(i):
    # a fresh __init__ with ("app", level=3) in this thread
    d = cfg.describe()
    cfg.level = i
    with lock:
        seen.append((d, cfg.describe()))


ts = [threading.Thread(target=use_cfg, args=(i,)) for i in range(5)]
for t in ts:
    t.start()
for t in ts:
    t.join()
print("subclass", sorted(seen))
print("main cfg", cfg.describe(), "inits", Config.created)
print("isinstance", isinstance(cfg, threading.local), type(cfg).__name__)


# a subclass with __slots__-free class attributes and a default
class WithDefault(threading.local):
    color = "red"


wd = WithDefault()
wd.color = "blue"
colors = []
t = threading.Thread(target=lambda: colors.append(wd.color))
t.start()
t.join()
print("class attribute default", colors, wd.color)

# local() with arguments but no __init__ override is an error
try:
    threading.local(1)
except TypeError as e:
    print("TypeError", e)

# values set in a thread disappear with it, and __dict__ is per thread
loc = threading.local()
dicts = []


def fill():
    loc.a = 1
    loc.b = 2
    dicts.append(sorted(loc.__dict__.items()))


t = threading.Thread(target=fill)
t.start()
t.join()
loc.c = 3
print("dicts", dicts, sorted(loc.__dict__.items()))

# many threads, each with its own counter in the same local
counter = threading.local()
totals = []


def count(n):
    counter.n = 0
    for _ in range(n):
        counter.n += 1
    with lock:
        totals.append(counter.n)


ts = [threading.Thread(target=count, args=(100 * (i + 1),)) for i in range(8)]
for t in ts:
    t.start()
for t in ts:
    t.join()
print("totals", sorted(totals))
