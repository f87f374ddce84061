# A NaN lock timeout is ValueError (it became an undefined nanosecond count),
# and signal numbers are C ints (OverflowError beyond, ValueError out of range).
import signal
import threading
import time


def show(label, f):
    try:
        r = f()
    except Exception as e:
        print(label, '->', type(e).__name__, e)
    else:
        print(label, '->', r)


lock = threading.Lock()
lock.acquire()
show('held lock, nan', lambda: lock.acquire(timeout=float('nan')))
show('free lock, nan', lambda: threading.Lock().acquire(timeout=float('nan')))
show('rlock, nan', lambda: threading.RLock().acquire(timeout=float('nan')))
show('held lock, 0.01', lambda: lock.acquire(timeout=0.01))
show('sleep nan', lambda: time.sleep(float('nan')))
for n in [2**31, 2**40, -2**31 - 1, 0, 65, -1]:
    show('signal %d' % n, lambda: signal.signal(n, signal.SIG_DFL))
    show('getsignal %d' % n, lambda: signal.getsignal(n))
