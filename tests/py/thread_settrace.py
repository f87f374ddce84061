# Tracing is per thread: threading.settrace / setprofile install the hooks
# in threads started afterwards; the main thread's own trace function sees
# only its frames; each thread's events come in its own order.
import sys
import threading

from support.threads import start_join

per_thread = {}


def tracer(frame, event, arg):
    if frame.f_code.co_filename != __file__:
        return None
    per_thread.setdefault(threading.current_thread().name, []).append((event, frame.f_code.co_name, frame.f_lineno))
    return tracer


def square(n):
    r = n * n
    return r


def worker(k):
    for i in range(2):
        square(k + i)


threading.settrace(tracer)
print(threading.gettrace() is tracer)
ts = [threading.Thread(target=worker, args=(k,), name='T%d' % k) for k in range(3)]
start_join(ts)
threading.settrace(None)
sys.settrace(tracer)
square(5)
sys.settrace(None)
for name in sorted(per_thread):
    print(name, per_thread[name])

profiled = {}


def prof(frame, event, arg):
    # only this file's frames, named by thread ident (threading's own
    # bookkeeping runs under the profiler too, and differs from CPython's)
    if frame.f_code.co_filename == __file__:
        profiled.setdefault(threading.get_ident(), []).append((event, frame.f_code.co_name))


def profiled_work():
    return abs(square(-3))


threading.setprofile(prof)
t = threading.Thread(target=profiled_work, name='P')
start_join([t])
threading.setprofile(None)
print(list(profiled.values()))
print(sys.gettrace(), sys.getprofile(), threading.getprofile())
