# Weak references, callbacks and finalizers under threads: every thread
# makes objects, weak references to its own and to shared objects (with and
# without callbacks) and objects with __del__, drops some, and collects now
# and then. Invariants, checked all along and at the end: a weak reference
# is either dead or gives the object it was made for; one whose object is
# still held is alive; every callback and every __del__ runs exactly once,
# for exactly the objects that died. TMPY_THREAD_SCALE=N lengthens it.
import _thread
import gc
import os
import sys
import threading
import weakref

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "support"))
from threads import run_threads, wait_until  # noqa: E402

SCALE = int(os.environ.get("TMPY_THREAD_SCALE", "1"))
NTHREADS = 4
ROUNDS = 40 * SCALE
lock = threading.Lock()
callbacks = {}     # id tag -> times its callback ran
deleted = {}       # tag -> times __del__ ran
errors = []


class Obj:
    def __init__(self, tag):
        self.tag = tag


class Fin:
    def __init__(self, tag):
        self.tag = tag

    def __del__(self):
        with lock:
            deleted[self.tag] = deleted.get(self.tag, 0) + 1


def note_callback(tag):
    def cb(w):
        with lock:
            callbacks[tag] = callbacks.get(tag, 0) + 1
    return cb


shared = [Obj(("shared", i)) for i in range(16)]
all_refs = []      # (tag, weakref, has callback), appended under the lock
all_fins = []      # tags of every Fin made


def worker(t):
    kept = {}
    mine = []
    for r in range(ROUNDS):
        for i in range(20):
            tag = (t, r, i)
            o = Obj(tag)
            cb = i % 2 == 0
            w = weakref.ref(o, note_callback(tag)) if cb else weakref.ref(o)
            mine.append((tag, w, cb))
            if i % 3 == 0:
                kept[tag] = o
            if i % 5 == 0:
                Fin(tag)
                with lock:
                    all_fins.append(tag)
            s = shared[(t * 7 + r + i) % len(shared)]
            sw = weakref.ref(s)
            if sw() is not s:
                errors.append("shared weak ref lost its object")
        # drop about half of what is kept
        for tag in list(kept)[::2]:
            del kept[tag]
        for tag, w, cb in mine:
            o = w()
            if o is not None and o.tag != tag:
                errors.append("weak ref gives a wrong object: %r %r" % (tag, o.tag))
            if tag in kept and o is not kept[tag]:
                errors.append("weak ref to a held object died: %r" % (tag,))
        if r % 10 == 9:
            gc.collect()
    with lock:
        all_refs.extend(mine)
    o = None   # the last object looked at is not held past the thread's end
    return kept


results = []


def run(t):
    results.append(worker(t))


run_threads(run, [(t,) for t in range(NTHREADS)])
held = {}
for k in results:
    held.update(k)
# A joined thread may still be ending its last transaction, whose young
# objects a collection keeps (build/tmpy): wait until no thread is left.
wait_until(lambda: _thread._count() == 0, "threads gone")
gc.collect()
gc.collect()
dead_with_cb = 0
for tag, w, cb in all_refs:
    o = w()
    if tag in held:
        if o is not held[tag]:
            errors.append("held object's weak ref dead at the end: %r" % (tag,))
    elif o is not None:
        errors.append("unreachable object still alive after gc.collect(): %r" % (tag,))
    elif cb:
        dead_with_cb += 1
        if callbacks.get(tag) != 1:
            errors.append("callback for %r ran %r times" % (tag, callbacks.get(tag)))
for tag, n in callbacks.items():
    if n != 1 or tag in held:
        errors.append("callback ran %d times for %r (held: %r)" % (n, tag, tag in held))
for tag in all_fins:
    if deleted.get(tag) != 1:
        errors.append("__del__ of %r ran %r times" % (tag, deleted.get(tag)))
print("threads:", len(results), "weak refs:", len(all_refs), "held:", len(held))
print("callbacks ran for every dead referent:", dead_with_cb == len(callbacks))
print("finalizers:", len(deleted) == len(all_fins))
print("errors:", errors[:5])
