# A custom threading.excepthook receives exc_type, exc_value,
# exc_traceback and thread; output goes to stdout here.
import threading

seen = []
lock = threading.Lock()


def hook(args):
    with lock:
        seen.append((args.thread.name, args.exc_type.__name__, str(args.exc_value)))
    print("hook:", args.exc_type.__name__, args.exc_value, args.thread.name,
          args.exc_traceback is not None, type(args.exc_value) is args.exc_type)


threading.excepthook = hook


def fail(kind, msg):
    raise kind(msg)


t = threading.Thread(target=fail, args=(ValueError, "bad value"), name="first")
t.start()
t.join()
t = threading.Thread(target=fail, args=(KeyError, "k"), name="second")
t.start()
t.join()


class MyError(Exception):
    pass


t = threading.Thread(target=fail, args=(MyError, "custom"))
t.start()
t.join()
print("default name", seen[-1][0].startswith("Thread-"), seen[-1][0].endswith("(fail)"))

# SystemExit reaches a custom hook too (only the default hook ignores it)
t = threading.Thread(target=fail, args=(SystemExit, 5), name="exiting")
t.start()
t.join()
print("after SystemExit", len(seen))

# many failing threads at once: every failure reaches the hook exactly once
ts = [threading.Thread(target=fail, args=(RuntimeError, "r%d" % i), name="m%d" % i)
      for i in range(10)]
seen.clear()
threading.excepthook = lambda a: seen.append((a.thread.name, str(a.exc_value)))
for x in ts:
    x.start()
for x in ts:
    x.join()
print("many", sorted(seen) == sorted(("m%d" % i, "r%d" % i) for i in range(10)), len(seen))


# an exception raised by a Thread subclass's run()
class Runner(threading.Thread):
    def run(self):
        raise ZeroDivisionError("in run")


threading.excepthook = hook
r = Runner(name="runner")
r.start()
r.join()

# a target that is not callable fails inside the new thread
t = threading.Thread(target=1, name="not-callable")
t.start()
t.join()
t = threading.Thread(target=fail, args=(1, 2, 3), name="bad-args")
t.start()
t.join()

# the original hook is still reachable
print("__excepthook__ kept", threading.__excepthook__ is not hook)


# the default hook writes to sys.stderr: capture it with a file-like object
import sys


class Capture:
    def __init__(self):
        self.parts = []

    def write(self, s):
        self.parts.append(s)
        return len(s)

    def flush(self):
        pass


threading.excepthook = threading.__excepthook__
cap = Capture()
saved = sys.stderr
sys.stderr = cap
try:
    t = threading.Thread(target=fail, args=(TypeError, "captured"), name="cap-thread")
    t.start()
    t.join()
    t = threading.Thread(target=fail, args=(SystemExit, 1), name="quiet")
    t.start()
    t.join()
finally:
    sys.stderr = saved
lines = "".join(cap.parts).splitlines()
print("captured first:", lines[0])
print("captured second:", lines[1])
print("captured last:", lines[-1])
print("Exception headers", sum(1 for x in lines if x.startswith("Exception in thread")))
