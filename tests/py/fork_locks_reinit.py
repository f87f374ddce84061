# fork while other threads hold an RLock and a Lock, wait for that Lock, and sit inside an import:
# in the child, _at_fork_reinit frees the locks (logging and concurrent.futures call it at fork),
# threads of the child contend for them (waits and handoffs on the reset monitors), and an import
# works although the thread that held the import lock does not exist there
import builtins
import os
import threading

rlock = threading.RLock()
lock = threading.Lock()
holding = threading.Event()
release = threading.Event()
waiting = threading.Event()
import_started = threading.Event()
builtins._blocking_import_events = (import_started, release)


def holder():
    with rlock:
        lock.acquire()
        holding.set()
        release.wait(30)
        lock.release()


def waiter():
    waiting.set()
    with lock:   # blocks: holder has it
        pass


def importer():
    from support import blocking_import
    assert blocking_import.VALUE == 42


def child():
    lock._at_fork_reinit()
    rlock._at_fork_reinit()
    counter = [0]

    def work():
        for _ in range(200):
            with rlock:
                with lock:
                    counter[0] += 1

    ts = [threading.Thread(target=work) for _ in range(3)]
    for t in ts:
        t.start()
    for t in ts:
        t.join()
    import colorsys   # the import lock: held by importer in the parent, free here
    assert colorsys.rgb_to_hsv(1, 0, 0) == (0, 1, 1)
    return counter[0] // 10


threads = [threading.Thread(target=f) for f in (holder, waiter, importer)]
threads[0].start()
holding.wait(30)
threads[1].start()
waiting.wait(30)
threads[2].start()
import_started.wait(30)
pid = os.fork()
if pid == 0:
    code = 1
    try:
        code = child()
    finally:
        os._exit(code)
_, status = os.waitpid(pid, 0)
print("child exit code", os.waitstatus_to_exitcode(status))
release.set()
for t in threads:
    t.join()
print("parent", lock.locked(), rlock._is_owned())
