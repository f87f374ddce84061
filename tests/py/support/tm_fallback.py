"""`from support.tm_fallback import tm` gives tmpy's `tm` module, and under
CPython, which has none, a stand-in, so that CPython prints what tmpy should.
One RLock per object (kept alive by the registry) and a FIFO list of waiters
give the same observable behaviour."""
import threading

try:
    import tm
except ImportError:
    tm = None


class _Monitor:
    def __init__(self):
        self.lock = threading.RLock()
        self.waiters = []

class _FallbackTm:
    _registry = {}
    _reg_lock = threading.Lock()
    # `with tm.atomic:` blocks exclude each other (one re-entrant lock): the
    # same observable result as tmpy's transactions for these programs.
    atomic = threading.RLock()

    @staticmethod
    def _mon(obj):
        with _FallbackTm._reg_lock:
            entry = _FallbackTm._registry.get(id(obj))
            if entry is None:
                entry = (obj, _Monitor())
                _FallbackTm._registry[id(obj)] = entry
            return entry[1]

    @staticmethod
    def synchronized(obj):
        return _FallbackTm._mon(obj).lock

    @staticmethod
    def is_owned(obj):
        return _FallbackTm._mon(obj).lock._is_owned()

    @staticmethod
    def wait(obj, timeout=None):
        m = _FallbackTm._mon(obj)
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
        m = _FallbackTm._mon(obj)
        if not m.lock._is_owned():
            raise RuntimeError("cannot notify on un-acquired monitor")
        k = 0
        while m.waiters and k < n:
            m.waiters.pop(0).release()
            k += 1
        return k

    @staticmethod
    def notify_all(obj):
        return _FallbackTm.notify(obj, 1 << 30)

    @staticmethod
    def mode():
        return "gil"

    @staticmethod
    def stats():
        return {"transactions": 0, "commits": 0, "aborts": 0, "inevitable": 0, "solo": 0,
                "aborts_by_cause": {}, "aborted_ns": 0, "commit_ns": 0, "wait_ns": 0,
                "c_blocks_freed_by_aborts": 0}

    @staticmethod
    def thread_stats():
        return {"transactions": 0, "commits": 0, "aborts": 0, "inevitable": 0, "solo": 0,
                "aborts_by_cause": {}, "aborted_ns": 0, "commit_ns": 0, "wait_ns": 0}


if tm is None:
    tm = _FallbackTm
