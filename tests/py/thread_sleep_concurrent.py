# time.sleep in a thread releases the GIL: two threads each sleep 0.2s
# while the main thread keeps computing; everything finishes. No timing
# is printed (only that all finished and the results are right).
import threading
import time

lock = threading.Lock()
done = []


def sleeper(name, secs):
    time.sleep(secs)
    with lock:
        done.append(name)


ts = [threading.Thread(target=sleeper, args=("s%d" % i, 0.2)) for i in range(2)]
for t in ts:
    t.start()
# the main thread computes while both sleep
acc = 0
for i in range(100000):
    acc += i % 7
for t in ts:
    t.join()
print("both finished", sorted(done), acc)

# a sleeping thread does not stop an event handoff between two others
ev = threading.Event()
handoff = []


def long_sleep():
    time.sleep(0.2)
    handoff.append("sleeper")


def signaller():
    ev.set()


def waiter():
    ev.wait()
    handoff.append("waiter")


s = threading.Thread(target=long_sleep)
w = threading.Thread(target=waiter)
g = threading.Thread(target=signaller)
for t in (s, w, g):
    t.start()
for t in (s, w, g):
    t.join()
print("all", sorted(handoff))

# sleep(0) yields and returns None; negative sleep is an error
print("sleep(0)", time.sleep(0))
try:
    time.sleep(-1)
except ValueError as e:
    print("ValueError", e)

# 8 threads sleeping 0.05 each, in parallel, plus counting work
count = [0]


def nap_and_count():
    time.sleep(0.05)
    for _ in range(1000):
        with lock:
            count[0] += 1


ts = [threading.Thread(target=nap_and_count) for _ in range(8)]
for t in ts:
    t.start()
for t in ts:
    t.join()
print("count", count[0])
