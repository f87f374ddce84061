# Daemon threads do not keep the process alive: several daemon threads
# block forever (on an Event, a Lock, a queue, a Condition) and the main
# thread returns; the process exits 0 with nothing more printed.
import queue
import threading

never = threading.Event()
held = threading.Lock()
held.acquire()
q = queue.Queue()
cond = threading.Condition()
ready = threading.Barrier(5)


def on_event():
    ready.wait()
    never.wait()
    print("event daemon woke")


def on_lock():
    ready.wait()
    held.acquire()
    print("lock daemon woke")


def on_queue():
    ready.wait()
    q.get()
    print("queue daemon woke")


def on_cond():
    with cond:
        ready.wait()
        cond.wait()
    print("cond daemon woke")


ts = [threading.Thread(target=f, daemon=True) for f in (on_event, on_lock, on_queue, on_cond)]
for t in ts:
    t.start()
ready.wait()
print("daemons alive", [t.is_alive() for t in ts], [t.daemon for t in ts])
print("active", threading.active_count())
print("main done")
