"""`tm` for CPython, which has none: the tests/py programs that use object
monitors import this when `import tm` fails, so that CPython prints what
tmpy should. One RLock per object (kept alive by the registry) and a FIFO
list of waiters give the same observable behaviour."""
import threading


class _Monitor:
    def __init__(self):
        self.lock = threading.RLock()
        self.waiters = []

class tm:
    _registry = {}
    _reg_lock = threading.Lock()

    @staticmethod
    def _mon(obj):
        with tm._reg_lock:
            entry = tm._registry.get(id(obj))
            if entry is None:
                entry = (obj, _Monitor())
                tm._registry[id(obj)] = entry
            return entry[1]

    @staticmethod
    def synchronized(obj):
        return tm._mon(obj).lock

    @staticmethod
    def is_owned(obj):
        return tm._mon(obj).lock._is_owned()

    @staticmethod
    def wait(obj, timeout=None):
        m = tm._mon(obj)
        if not m.lock._is_owned():
            raise RuntimeError("cannot wait on un-acquired monitor")
        w = threading.Lock()
        w.acquire()
        m.waiters.append(w)
        state = m.lock._release_save()
        try:
            if timeout is None:
                got = w.acquire()
            else:
                got = w.acquire(True, timeout)
        finally:
            m.lock._acquire_restore(state)
        if not got:
            if w in m.waiters:
                m.waiters.remove(w)
            else:
                got = True
        return got

    @staticmethod
    def notify(obj, n=1):
        m = tm._mon(obj)
        if not m.lock._is_owned():
            raise RuntimeError("cannot notify on un-acquired monitor")
        k = 0
        while m.waiters and k < n:
            m.waiters.pop(0).release()
            k += 1
        return k

    @staticmethod
    def notify_all(obj):
        return tm.notify(obj, 1 << 30)

    @staticmethod
    def mode():
        return "gil"
