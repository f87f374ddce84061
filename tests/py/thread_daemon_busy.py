# Daemon threads still running Python code (allocating, taking locks,
# sleeping briefly) when the main thread finishes: the process exits 0
# at once with exactly the main thread's output, without waiting for
# them and without crashing while they are mid-work.
import threading
import time

lock = threading.Lock()
progress = [0, 0, 0, 0]
started = threading.Barrier(5)


def allocate(k):
    started.wait()
    junk = []
    while True:
        junk.append([k] * 10)
        if len(junk) > 1000:
            junk = []
        progress[k] += 1


def locking(k):
    started.wait()
    while True:
        with lock:
            progress[k] += 1


def napping(k):
    started.wait()
    while True:
        time.sleep(0.001)
        progress[k] += 1


for k, f in enumerate((allocate, allocate, locking, napping)):
    threading.Thread(target=f, args=(k,), daemon=True).start()
started.wait()
# let every daemon make progress before main finishes
while min(progress) < 3:
    time.sleep(0.001)
print("daemons running", threading.active_count())
with lock:
    print("main holds the lock at the end")
print("main done")
