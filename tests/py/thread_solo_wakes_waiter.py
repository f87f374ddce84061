# A thread that lets a waiter go (a lock's release, Event.set, a notify)
# and then runs on without blocking wakes the waiter at its next commit:
# under build/tmpy the wake-up is deferred to the commit (runtime/wake.h),
# and a waiter without a timeout is passive, so the running thread may be
# solo and go on past its yield points (tm_solo_may_go_on) -- which it must
# not do while a wake-up waits for its commit, or the waiter sleeps until
# the runner blocks (here: never, a hang). Under TMPY_SEGMENTS=1 too.
import threading

ROUNDS = 20

for kind in ("event", "lock", "condition", "join"):
    woke = 0
    for r in range(ROUNDS):
        ev = threading.Event()
        lock = threading.Lock()
        cond = threading.Condition()
        state = {"go": False, "stop": False, "spins": 0}
        if kind == "lock":
            lock.acquire()

        def runner():
            # Let the main thread go, then spin until it says it woke.
            if kind == "event":
                ev.set()
            elif kind == "lock":
                lock.release()
            elif kind == "condition":
                with cond:
                    while not state["go"]:
                        cond.wait()
                    state["go"] = False
                    cond.notify()
            while not state["stop"]:
                state["spins"] += 1

        if kind == "join":
            # the joined thread ends while another spins: its sentinel's
            # release wakes the joiner at that thread's last commit
            spinner = threading.Thread(target=runner)
            quick = threading.Thread(target=lambda: None)
            spinner.start()
            quick.start()
            quick.join()
            state["stop"] = True
            spinner.join()
            woke += not quick.is_alive()
            continue
        t = threading.Thread(target=runner)
        t.start()
        if kind == "event":
            ev.wait()
        elif kind == "lock":
            lock.acquire()
            lock.release()
        elif kind == "condition":
            with cond:
                state["go"] = True
                cond.notify()
                while state["go"]:
                    cond.wait()
        state["stop"] = True
        t.join()
        woke += 1
    print(kind, "woken", woke, "of", ROUNDS)
