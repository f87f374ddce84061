# A threading.excepthook that itself raises: the interpreter reports the
# hook's own exception on stderr ("Exception in threading.excepthook:"),
# the thread ends, the process continues and exits 0. The last stderr
# line is the hook's exception.
import threading

calls = []


def hook(args):
    calls.append((args.exc_type.__name__, args.thread.name))
    raise KeyError("from hook")


threading.excepthook = hook
t = threading.Thread(target=lambda: 1 / 0, name="failing")
t.start()
t.join()
print("calls", calls, "alive", t.is_alive())
print("main continues")
