# threading.Thread's life as CPython's threading.py runs it over _thread:
# the thread takes its sentinel lock (_set_sentinel() gives it free) and
# holds it until _thread releases it at the thread's end, after the thread
# left _count(); join() waits for that lock, is_alive() probes it without
# blocking, from any number of threads at once. Many threads started and
# joined in waves, joins with timeouts, joins from several threads on one,
# and is_alive() polled until the end (no join at all).
import _thread
import os
import threading
import time

SCALE = int(os.environ.get("TMPY_THREAD_SCALE", "1"))

base = _thread._count()

# is_alive() and repr() through a thread's life
gate = threading.Event()
t = threading.Thread(target=gate.wait, name="gated")
print("before start:", t.is_alive(), "initial" in repr(t))
t.start()
print("running:", t.is_alive(), "started" in repr(t), t.ident is not None, t.native_id is not None)
t.join(0.01)
print("join timed out:", t.is_alive())
gate.set()
t.join()
print("after join:", t.is_alive(), "stopped" in repr(t), _thread._count() == base)

# waves of threads, each joined; the count comes back each time
results = []
lock = threading.Lock()
def work(k):
    s = 0
    for i in range(200):
        s += i * k
    with lock:
        results.append(s)
for wave in range(5 * SCALE):
    ts = [threading.Thread(target=work, args=(k,)) for k in range(40)]
    for th in ts:
        th.start()
    for th in ts:
        th.join()
    assert not any(th.is_alive() for th in ts)
print("waves:", len(results), sum(results) == 5 * SCALE * sum(sum(i * k for i in range(200)) for k in range(40)),
      _thread._count() == base, threading.active_count())

# several threads join one thread; its end releases every one of them
release = threading.Event()
target = threading.Thread(target=release.wait)
target.start()
joined = []
def joiner(k):
    target.join()
    with lock:
        joined.append(k)
joiners = [threading.Thread(target=joiner, args=(k,)) for k in range(8)]
for j in joiners:
    j.start()
time.sleep(0.02)
print("joiners waiting:", len(joined), target.is_alive())
release.set()
for j in joiners:
    j.join()
print("joiners released:", sorted(joined) == list(range(8)), target.is_alive())

# is_alive() polled by two threads until the thread ends, nobody joins it
stop = threading.Event()
polled = threading.Thread(target=stop.wait)
polled.start()
seen = []
def poller():
    n = 0
    while polled.is_alive():
        n += 1
        time.sleep(0.001)
    with lock:
        seen.append(n > 0)
pollers = [threading.Thread(target=poller) for _ in range(2)]
for p in pollers:
    p.start()
time.sleep(0.02)
stop.set()
for p in pollers:
    p.join()
print("polled to the end:", seen, polled.is_alive())

# the main thread's own sentinel is held; enumerate() lists only live threads
print("main:", threading.main_thread().is_alive(), threading.current_thread() is threading.main_thread(),
      [th.name for th in threading.enumerate()])
try:
    threading.current_thread().join()
except RuntimeError as e:
    print("join self:", e)

# a non-daemon thread still running at exit is joined by threading._shutdown()
def late():
    time.sleep(0.05)
    print("late thread done")
threading.Thread(target=late).start()
print("main done")
