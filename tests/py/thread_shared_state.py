# Interpreter state that is per thread stays per thread (the exception
# being handled, recursion depth), and state that is shared stays
# coherent: class attributes and methods rebound while other threads read
# them, a generator shared under a lock, a generator already running in
# another thread.
import sys
import threading

saved_interval = sys.getswitchinterval()
sys.setswitchinterval(1e-5)

# sys.exc_info() is per thread
in_a = threading.Event()
checked = threading.Event()
out = []


def a():
    try:
        raise KeyError("a-exc")
    except KeyError:
        in_a.set()
        checked.wait()
        out.append(("A sees", repr(sys.exc_info()[1])))
    out.append(("A after", sys.exc_info()))


def b():
    in_a.wait()
    out.append(("B sees", sys.exc_info()))
    try:
        raise ValueError("b-exc")
    except ValueError:
        out.append(("B inner", repr(sys.exc_info()[1])))
    out.append(("B after", sys.exc_info()))
    checked.set()


ta = threading.Thread(target=a)
tb = threading.Thread(target=b)
ta.start()
tb.start()
ta.join()
tb.join()
for o in out:
    print(o)
try:
    raise OSError("main-exc")
except OSError:
    t = threading.Thread(target=lambda: out.append(sys.exc_info()))
    t.start()
    t.join()
    print("thread inside main's except sees", out[-1], "main sees", repr(sys.exc_info()[1]))

# the recursion depth is counted per thread: three threads 600 deep at once
bar = threading.Barrier(3)
res = []


def deep(n):
    if n == 0:
        bar.wait()
        return 0
    return 1 + deep(n - 1)


def run_deep():
    try:
        res.append(deep(600))
    except RecursionError:
        res.append("RecursionError")


ts = [threading.Thread(target=run_deep) for _ in range(3)]
for t in ts:
    t.start()
for t in ts:
    t.join()
print("depths", res)


# class attributes and methods rebound while other threads read them
class C:
    x = 0

    def m(self):
        return self.x


class D(C):
    pass


objs = [D() for _ in range(4)]
stop = [False]
bad = []


def writer():
    for i in range(1, 5001):
        C.x = i
        if i % 3 == 0:
            C.m = lambda self, i=i: -i
        elif i % 3 == 1:
            del C.m
            C.m = lambda self: self.x
    stop[0] = True


def reader(o):
    while not stop[0]:
        v = o.x
        r = o.m()
        if not (0 <= v <= 5000) or not (-5000 <= r <= 5000):
            bad.append((v, r))


ts = [threading.Thread(target=reader, args=(o,)) for o in objs]
w = threading.Thread(target=writer)
for t in ts:
    t.start()
w.start()
w.join()
for t in ts:
    t.join()
print("class attrs", bad, [o.x for o in objs], C.x, [o.m() for o in objs])


# a generator shared by four threads under a lock: every value once
def gen():
    for i in range(3000):
        yield i


g = gen()
lock = threading.Lock()
got = [[] for _ in range(4)]


def consume(k):
    while True:
        with lock:
            try:
                v = next(g)
            except StopIteration:
                return
        got[k].append(v)


ts = [threading.Thread(target=consume, args=(k,)) for k in range(4)]
for t in ts:
    t.start()
for t in ts:
    t.join()
print("shared generator", sorted(x for lst in got for x in lst) == list(range(3000)))

# a generator that is running in another thread cannot be resumed here
inside = threading.Event()
resume = threading.Event()


def blocking_gen():
    inside.set()
    resume.wait()
    yield "first"
    yield "second"


bg = blocking_gen()
first = []
t = threading.Thread(target=lambda: first.append(next(bg)))
t.start()
inside.wait()
try:
    next(bg)
except ValueError as e:
    print("ValueError", e)
resume.set()
t.join()
print("generator results", first, next(bg))
sys.setswitchinterval(saved_interval)
