# threading.Condition's notify skips the monitor when every waiter counted has
# already been woken and is not back yet (issue 20). No wake-up may be lost:
# a producer hands over one item at a time and waits until it is taken, so a
# notify that wakes nobody who needs it hangs the round (reported as HUNG).
# Threads that wait with tiny timeouts on the same condition, and a notify_all
# now and then, make waiters come back un-notified while others are woken:
# the count of woken waiters must never hide a waiter still asleep.
import os
import threading

from support.threads import start_join

SCALE = int(os.environ.get("TMPY_THREAD_SCALE", "1"))


def handover(consumers, noisy, rounds, lock_kind):
    cond = threading.Condition(threading.Lock() if lock_kind == "Lock" else threading.RLock())
    items, taken = [], []
    state = {"stop": False, "noise_waits": 0}

    def consume():
        while True:
            with cond:
                cond.wait_for(lambda: items)
                x = items.pop()
                if x is None:
                    return
                taken.append(x)
                cond.notify_all()     # the producer waits for the take; so may other consumers

    def noise():
        with cond:
            while not state["stop"]:
                cond.wait(0.0002)     # times out: back without being notified
                state["noise_waits"] += 1

    def produce():
        for i in range(rounds):
            with cond:
                items.append(i)
                if noisy or i % 7 == 0:   # notify() could wake a noise thread instead of a consumer
                    cond.notify_all()
                else:
                    cond.notify()
                cond.wait_for(lambda: len(taken) == i + 1)
        with cond:
            state["stop"] = True
            items.extend([None] * consumers)
            cond.notify_all()

    ts = [threading.Thread(target=consume) for _ in range(consumers)]
    ts += [threading.Thread(target=noise) for _ in range(noisy)]
    ts.append(threading.Thread(target=produce))
    start_join(ts, timeout=60.0)
    print("handover", lock_kind, consumers, noisy, sorted(taken) == list(range(rounds)),
          "noise woke:", state["noise_waits"] > 0 if noisy else "-")


for kind in ("Lock", "RLock"):
    handover(1, 0, 200 * SCALE, kind)
    handover(3, 0, 200 * SCALE, kind)
    handover(2, 2, 200 * SCALE, kind)
print("ok")
