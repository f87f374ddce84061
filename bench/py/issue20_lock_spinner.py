# The lock-starvation program of issue 20, as its text gives it: a thread
# takes and releases a threading.Lock in a tight loop while the main thread
# waits for the lock once (it hung under build/tmpy at every segment count).
# bench/issue21_matrix.py runs it across the STM configurations.
import threading, sys
lock = threading.Lock(); stop = False
def spinner():
    while not stop:
        lock.acquire()
        for i in range(10): pass
        lock.release()
t = threading.Thread(target=spinner); t.start()
with lock: pass
stop = True; t.join(); print("ok")
