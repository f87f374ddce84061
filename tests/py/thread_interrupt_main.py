# _thread.interrupt_main (from the main thread, from another thread that the
# main thread joins, with a handler of our own, and ignored under SIG_IGN and
# SIG_DFL), _thread.exit in a thread, and weak references to locks.
import _thread
import gc
import signal
import threading
import weakref

try:
    _thread.interrupt_main()
except KeyboardInterrupt:
    print("main thread: KeyboardInterrupt")

t = threading.Thread(target=_thread.interrupt_main)
try:
    t.start()
    t.join()
    print("joined without an interrupt")
except KeyboardInterrupt:
    print("from a thread: KeyboardInterrupt")
t.join()

got = []
old = signal.signal(signal.SIGTERM, lambda s, f: got.append(s))
_thread.interrupt_main(signal.SIGTERM)
print("own handler ran:", got == [signal.SIGTERM])
signal.signal(signal.SIGTERM, signal.SIG_IGN)
_thread.interrupt_main(signal.SIGTERM)
signal.signal(signal.SIGTERM, signal.SIG_DFL)
_thread.interrupt_main(signal.SIGTERM)
signal.signal(signal.SIGTERM, old)
print("SIG_IGN and SIG_DFL: nothing happened")
for bad in (-1, signal.NSIG, 10 ** 6):
    try:
        _thread.interrupt_main(bad)
    except ValueError as e:
        print(bad if bad < 0 else "big", "ValueError:", e)

out = []


def quits():
    out.append("before")
    _thread.exit()
    out.append("after")


t = threading.Thread(target=quits)
t.start()
t.join()
print("exit:", out)
try:
    _thread.exit_thread()
except SystemExit as e:
    print("exit_thread raises SystemExit", e.args)

for make in (threading.Lock, threading.RLock, _thread.allocate_lock):
    lock = make()
    r = weakref.ref(lock)
    print(type(lock).__name__, r() is lock, end=" ")
    del lock
    gc.collect()
    print(r() is None)
