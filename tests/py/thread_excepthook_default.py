# An uncaught exception in a thread goes through the default
# threading.excepthook: "Exception in thread NAME:" and a traceback on
# stderr (the last stderr line is compared); the thread dies, the process
# goes on and exits 0. SystemExit in a thread is silently ignored.
import threading


def quits():
    raise SystemExit(3)


def boom(n):
    if n > 0:
        return boom(n - 1)
    raise ValueError("boom")


t = threading.Thread(target=quits)
t.start()
t.join()
print("SystemExit thread alive", t.is_alive())

t = threading.Thread(target=boom, args=(3,), name="worker-1")
t.start()
t.join()
print("failed thread alive", t.is_alive())
print("hook is default", threading.excepthook is threading.__excepthook__)

# other threads keep working after one failed
out = []
ts = [threading.Thread(target=out.append, args=(i,)) for i in range(5)]
for x in ts:
    x.start()
for x in ts:
    x.join()
print("others", sorted(out))
