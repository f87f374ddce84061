# Thread identity and bookkeeping: names ("Thread-N (target)"),
# current_thread, main_thread, get_ident, active_count, enumerate, daemon
# flag and its inheritance, is_alive, ident, native_id, error messages.
import threading
import _thread

main = threading.main_thread()
print("main", main.name, main is threading.current_thread(), main.daemon, main.is_alive())
print("main ident", isinstance(main.ident, int), main.ident == threading.get_ident(),
      main.ident == _thread.get_ident())
print("native id", isinstance(threading.get_native_id(), int), main.native_id == threading.get_native_id())
print("active", threading.active_count(), [t.name for t in threading.enumerate()])


def noop():
    pass


class Job:
    def __call__(self):
        pass


t1 = threading.Thread(target=noop)
t2 = threading.Thread(target=noop, name="custom")
t3 = threading.Thread()
t4 = threading.Thread(target=lambda: None)
t5 = threading.Thread(target=noop, name="")
t6 = threading.Thread(target=len, args=("x",))
print("names", [t.name for t in (t1, t2, t3, t4, t5, t6)])
print("Job thread", threading.Thread(target=Job()).name)
print("before start", t1.is_alive(), t1.ident, t1.native_id, t1.daemon)
try:
    t1.join()
except RuntimeError as e:
    print("RuntimeError", e)
t1.start()
t1.join()
print("after join", t1.is_alive(), isinstance(t1.ident, int), t1.ident != main.ident)
try:
    t1.start()
except RuntimeError as e:
    print("RuntimeError", e)
try:
    threading.current_thread().join()
except RuntimeError as e:
    print("RuntimeError", e)

# names seen from inside the threads
lock = threading.Lock()
inside = []


def report(tag):
    cur = threading.current_thread()
    with lock:
        inside.append((tag, cur.name, cur.daemon, cur is not main, cur.ident == threading.get_ident(),
                       cur in threading.enumerate(), threading.main_thread() is main))


ts = [threading.Thread(target=report, args=(i,), name="w%d" % i) for i in range(4)]
for t in ts:
    t.start()
for t in ts:
    t.join()
for row in sorted(inside):
    print(row)

# daemon flag: explicit, inherited from the creating thread, settable before start
d = threading.Thread(target=noop, daemon=True)
print("daemon explicit", d.daemon)
nd = threading.Thread(target=noop)
nd.daemon = True
print("daemon set", nd.daemon)
nd.daemon = False
inherit = []


def creator():
    child = threading.Thread(target=noop)
    explicit = threading.Thread(target=noop, daemon=False)
    inherit.append((threading.current_thread().daemon, child.daemon, explicit.daemon))


for flag in (True, False):
    c = threading.Thread(target=creator, daemon=flag)
    c.start()
    c.join()
print("inherit", inherit)
d.start()
d.join()
try:
    d.daemon = False
except RuntimeError as e:
    print("RuntimeError", e)

# is_alive while running, active_count and enumerate with running threads
stop = threading.Event()
started = threading.Barrier(4)


def hold():
    started.wait()
    stop.wait()


hs = [threading.Thread(target=hold, name="h%d" % i) for i in range(3)]
for t in hs:
    t.start()
started.wait()
print("running", [t.is_alive() for t in hs], threading.active_count(), len(threading.enumerate()))
print("enumerate names", sorted(t.name for t in threading.enumerate()))
stop.set()
for t in hs:
    t.join()
print("after joins", [t.is_alive() for t in hs], threading.active_count(), len(threading.enumerate()))

# Thread subclass overriding run(); name setter
class Worker(threading.Thread):
    def __init__(self, n):
        super().__init__()
        self.n = n
        self.result = None

    def run(self):
        self.result = sum(range(self.n))


w = Worker(100)
print("subclass name", w.name)
w.name = "renamed"
w.start()
w.join()
print("subclass", w.result, w.name)

# target with args and kwargs
out = []
t = threading.Thread(target=lambda a, b, c=0: out.append(a + b + c), args=(1, 2), kwargs={"c": 3})
t.start()
t.join()
print("args kwargs", out)

# _thread level
lk = _thread.allocate_lock()
res = []


def raw(a, b):
    res.append((a, b, _thread.get_ident() != main.ident))
    lk.release()


lk.acquire()
ident = _thread.start_new_thread(raw, (1, "two"))
lk.acquire()
print("start_new_thread", isinstance(ident, int), res)
print("error is RuntimeError", _thread.error is RuntimeError, threading.ThreadError is RuntimeError)
print("TIMEOUT_MAX", threading.TIMEOUT_MAX > 1e6, threading.TIMEOUT_MAX == _thread.TIMEOUT_MAX)
try:
    threading.Thread(target=noop, bogus=1)
except TypeError as e:
    print("TypeError", type(e).__name__)

# stack size: 0 means the default; too small a size is refused
print("stack_size", _thread.stack_size(), threading.stack_size())
try:
    _thread.stack_size(100)
except ValueError as e:
    print("ValueError", e)
old = threading.stack_size(1 << 20)
sizes = []
t = threading.Thread(target=lambda: sizes.append(threading.stack_size()))
t.start()
t.join()
print("stack_size set", old, sizes, threading.stack_size(0))
