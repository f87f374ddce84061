# An exception that ends a thread started with _thread.start_new_thread goes
# to sys.unraisablehook (err_msg "Exception ignored in thread started by",
# object the function), as CPython's; SystemExit ends the thread quietly.
import _thread
import sys
import threading

seen = []


def hook(u):
    seen.append((u.exc_type.__name__, str(u.exc_value), u.err_msg, u.object.__name__,
                 u.exc_traceback is not None))


def run(func, *args):
    done = threading.Event()

    def body():
        try:
            func(*args)
        finally:
            done.set()

    body.__name__ = func.__name__
    _thread.start_new_thread(body, ())
    done.wait()
    while _thread._count():   # the report comes after the function returned
        pass


def fails(kind):
    raise kind("from " + kind.__name__)


def quits():
    sys.exit(3)


sys.unraisablehook = hook
run(fails, ValueError)
run(fails, KeyError)
run(quits)
print(len(seen), "reports")
for s in seen:
    print(s)
sys.unraisablehook = sys.__unraisablehook__
