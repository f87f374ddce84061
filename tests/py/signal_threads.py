# Signals and threads: only the main thread sets handlers; a signal another
# thread sends runs its handler in the main thread, and wakes the main
# thread's waits (join, lock, Condition, queue, Event, sleep): a handler that
# returns lets the wait go on, one that raises ends it with its exception.
import os
import queue
import signal
import threading
import time

ran_in = []


def recording(signum, frame):
    ran_in.append((signum, threading.current_thread() is threading.main_thread()))


class Stop(Exception):
    pass


def stopping(signum, frame):
    raise Stop(signum)


def in_thread(fn):
    t = threading.Thread(target=fn)
    t.start()
    t.join()


# signal.signal only in the main thread; getsignal anywhere.
def try_set():
    try:
        signal.signal(signal.SIGUSR1, recording)
    except ValueError as e:
        print("ValueError", e)
    print("getsignal in a thread", signal.getsignal(signal.SIGUSR1) == signal.SIG_DFL)


in_thread(try_set)

signal.signal(signal.SIGUSR1, recording)
signal.signal(signal.SIGUSR2, stopping)


def main_is_waiting():
    """The main thread sleeps in the kernel (a wait), not runnable. Read from
    /proc: on a loaded machine 50 ms were not always enough for the main
    thread to reach its wait, and a raising handler then ran before it."""
    try:
        with open("/proc/self/task/%d/stat" % threading.main_thread().native_id) as f:
            return f.read().rsplit(")", 1)[1].split()[0] == "S"
    except OSError:
        return True


def kill_later(sig, then=None):
    """A thread that sends sig to the process once the main thread waits, then calls then()."""
    def run():
        time.sleep(0.05)
        for _ in range(1000):   # two looks 10 ms apart: not a moment's wait for the GIL
            if main_is_waiting():
                time.sleep(0.01)
                if main_is_waiting():
                    break
            time.sleep(0.01)
        os.kill(os.getpid(), sig)
        time.sleep(0.05)
        if then:
            then()
    t = threading.Thread(target=run)
    t.start()
    return t


# join: the handler runs in the main thread, the join goes on.
t = kill_later(signal.SIGUSR1)
t.join()
print("join done", ran_in, t.is_alive())

# A raising handler ends the join.
t = kill_later(signal.SIGUSR2)
try:
    t.join()
    print("not reached")
except Stop as e:
    # CPython 3.11 gives up a thread whose join was interrupted: it counts as stopped.
    print("join interrupted", e.args, t.is_alive())
t.join()

# Lock.acquire: resumed after a handler that returns; ended by one that raises.
lock = threading.Lock()
lock.acquire()
t = kill_later(signal.SIGUSR1, lock.release)
print("acquired", lock.acquire(), len(ran_in))
t.join()
t = kill_later(signal.SIGUSR2)
try:
    lock.acquire()
    print("not reached")
except Stop as e:
    print("acquire interrupted", e.args, lock.locked())
t.join()
t = kill_later(signal.SIGUSR2)
try:
    lock.acquire(timeout=30)
except Stop as e:
    print("timed acquire interrupted", e.args)
t.join()
lock.release()

# RLock held by another thread.
rlock = threading.RLock()
holding = threading.Event()
release = threading.Event()


def hold():
    with rlock:
        holding.set()
        release.wait()


h = threading.Thread(target=hold)
h.start()
holding.wait()
t = kill_later(signal.SIGUSR2)
try:
    rlock.acquire()
except Stop as e:
    print("rlock acquire interrupted", e.args)
t.join()
release.set()
h.join()
with rlock:
    print("rlock taken after")

# Condition.wait, queue.get, Event.wait.
cond = threading.Condition()
t = kill_later(signal.SIGUSR2)
with cond:
    try:
        cond.wait()
    except Stop as e:
        print("Condition.wait interrupted", e.args, cond._is_owned())
t.join()

q = queue.Queue()
t = kill_later(signal.SIGUSR1, lambda: q.put("item"))
print("queue.get", q.get(), len(ran_in))
t.join()
t = kill_later(signal.SIGUSR2)
try:
    q.get(timeout=30)
except Stop as e:
    print("queue.get interrupted", e.args)
t.join()

ev = threading.Event()
t = kill_later(signal.SIGUSR1, ev.set)
print("Event.wait", ev.wait(), len(ran_in))
t.join()

# time.sleep in the main thread, the signal from another thread.
t = kill_later(signal.SIGUSR2)
try:
    time.sleep(30)
except Stop as e:
    print("sleep interrupted", e.args)
t.join()

# A handler that puts into the queue the main thread waits on.
signal.signal(signal.SIGUSR1, lambda s, f: q.put("from handler"))
t = kill_later(signal.SIGUSR1)
print("queue.get", q.get())
t.join()

# A sleep in another thread is not interrupted (its signals go to the main thread).
# The sleeper sleeps until the main thread has been interrupted (a fixed 0.2 s
# ended first on a loaded machine, before the signal came).
interrupted = threading.Event()


def sleeper():
    while not interrupted.is_set():
        time.sleep(0.02)
    print("thread slept")


s = threading.Thread(target=sleeper)
s.start()
t = kill_later(signal.SIGUSR2)
try:
    while s.is_alive():
        time.sleep(0.01)
except Stop as e:
    print("main interrupted", e.args)
    interrupted.set()
s.join()
t.join()
print("handlers ran in the main thread:", all(main for _, main in ran_in))
