# A transaction that starts inside a callee and returns into its caller saves
# the caller's frame for an abort, and with it the callee's locals, which lie
# inside the caller's stack: objects the transaction created there (a big
# bytes, which lives outside the nursery; under move mode every object) must
# not stay in that undo log. Another thread's gc.collect() marks the log: a created
# object in it was freed by the owner's next minor collection, or read after
# an abort in a view that no longer holds it (the threaded fuzzer's "reference
# to SO ..., which is not an allocated old object"). The runtime now checks
# the log at every major collection.
import gc
import threading

done = threading.Event()


def callee(i):
    s = 0
    for k in range(3):        # yield points: transactions start in here
        s += k
    big = bytes(i % 5) * 20000   # too big for the nursery: created outside it
    pair = (i, len(big))
    return s + pair[1] + pair[0] % 7


def caller(n):
    total = 0
    for i in range(n):
        total += callee(i)   # the callee's frame starts inside this frame's stack
    if n < 0:                # never runs: a deep stack, so the frame's end lies above the callee's locals
        total = [n, n, n, n, n, n, n, n, n, n, n, n, n, n, n, n, n, n, n, n]
    return total


def collector():
    collections = 0
    while not done.is_set() or collections < 3:
        gc.collect()
        collections += 1


results = []


def worker(n):
    results.append(caller(n))


c = threading.Thread(target=collector)
c.start()
workers = [threading.Thread(target=worker, args=(4000,)) for _ in range(2)]
for w in workers:
    w.start()
for w in workers:
    w.join()
done.set()
c.join()
print(sorted(results))
