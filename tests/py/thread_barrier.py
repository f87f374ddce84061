# threading.Barrier: several rounds, action, wait() indexes, abort,
# BrokenBarrierError, timeout, reset, n_waiting afterwards.
import threading

from support.threads import wait_until

N = 5
ROUNDS = 6
b_lock = threading.Lock()
actions = []
indexes = [[] for _ in range(ROUNDS)]
phase_counts = [0] * ROUNDS
errors = []


def action():
    # runs once per round, in one of the threads, before any is released
    actions.append(sum(phase_counts))


barrier = threading.Barrier(N, action=action)


def worker():
    for r in range(ROUNDS):
        with b_lock:
            phase_counts[r] += 1
        i = barrier.wait()
        with b_lock:
            indexes[r].append(i)
            # every thread of this round arrived before anyone passed
            if phase_counts[r] != N:
                errors.append(r)


ts = [threading.Thread(target=worker) for _ in range(N)]
for t in ts:
    t.start()
for t in ts:
    t.join()
print("parties", barrier.parties, "n_waiting", barrier.n_waiting, "broken", barrier.broken)
print("actions", actions)
print("indexes", all(sorted(ix) == list(range(N)) for ix in indexes), "errors", errors)


# abort wakes every waiter with BrokenBarrierError
b2 = threading.Barrier(4)
outcome = []


def w2():
    try:
        b2.wait()
        outcome.append("passed")
    except threading.BrokenBarrierError as e:
        outcome.append(type(e).__name__)


ts = [threading.Thread(target=w2) for _ in range(3)]
for t in ts:
    t.start()
wait_until(lambda: b2.n_waiting == 3, "3 waiting on b2")
b2.abort()
for t in ts:
    t.join()
print("abort", sorted(outcome), "broken", b2.broken, "n_waiting", b2.n_waiting)
try:
    b2.wait()
except threading.BrokenBarrierError:
    print("wait on broken barrier raises")
print("BrokenBarrierError is RuntimeError", issubclass(threading.BrokenBarrierError, RuntimeError))
b2.reset()
print("after reset broken", b2.broken, "n_waiting", b2.n_waiting)

# the barrier is usable again after reset
out2 = []
ts = [threading.Thread(target=lambda: out2.append(b2.wait())) for _ in range(4)]
for t in ts:
    t.start()
for t in ts:
    t.join()
print("reused", sorted(out2))

# a timeout breaks the barrier for everyone
b3 = threading.Barrier(3, timeout=0.05)
res3 = []


def w3():
    try:
        b3.wait()
        res3.append("passed")
    except threading.BrokenBarrierError:
        res3.append("broken")


t = threading.Thread(target=w3)
t.start()
try:
    b3.wait()
    res3.append("passed")
except threading.BrokenBarrierError:
    res3.append("broken")
t.join()
print("timeout", res3, b3.broken)

# a per-call timeout
b4 = threading.Barrier(2)
try:
    b4.wait(timeout=0.02)
except threading.BrokenBarrierError:
    print("per-call timeout broken", b4.broken)

# an action that raises breaks the barrier; the raising thread gets the exception
def bad_action():
    raise ValueError("action failed")


b5 = threading.Barrier(3, action=bad_action)
res5 = []


def w5():
    try:
        b5.wait()
        res5.append("passed")
    except threading.BrokenBarrierError:
        res5.append("broken")
    except ValueError as e:
        res5.append("ValueError: %s" % e)


ts = [threading.Thread(target=w5) for _ in range(3)]
for t in ts:
    t.start()
for t in ts:
    t.join()
print("raising action", sorted(res5), b5.broken)

# reset() while threads wait: they get BrokenBarrierError, the barrier is
# not broken afterwards and a full new round passes
b7 = threading.Barrier(3)
res7 = []


def w7():
    try:
        b7.wait()
        res7.append("passed")
    except threading.BrokenBarrierError:
        res7.append("reset")


ts = [threading.Thread(target=w7) for _ in range(2)]
for t in ts:
    t.start()
wait_until(lambda: b7.n_waiting == 2, "2 waiting on b7")
b7.reset()
ts2 = [threading.Thread(target=w7) for _ in range(3)]
for t in ts2:
    t.start()
for t in ts + ts2:
    t.join()
print("reset with waiters", sorted(res7), b7.broken, b7.n_waiting)

# a Barrier(1) never blocks
b6 = threading.Barrier(1, action=lambda: print("action of Barrier(1)"))
print("Barrier(1)", [b6.wait() for _ in range(3)])
