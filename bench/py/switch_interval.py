"""Threads that only compute, with a short switch interval:

  switch_interval.py [THREADS INTERVAL [LOOPS]]

THREADS threads each run a loop of additions under sys.setswitchinterval(INTERVAL), so the
interpreter hands the GIL over every INTERVAL seconds: the program measures the cost of a forced
thread switch (defaults: 4 threads, 0.0001 s). Prints the checksum and the wall-clock time.
"""
import sys
import threading
import time

args = sys.argv[1:] or ['4', '0.0001', '2000000']
THREADS, INTERVAL = int(args[0]), float(args[1])
LOOPS = int(args[2]) if len(args) > 2 else 2000000
sys.setswitchinterval(INTERVAL)
results = [0] * THREADS


def work(k):
    n = 0
    for i in range(LOOPS):
        n += i ^ k
    results[k] = n


threads = [threading.Thread(target=work, args=(k,)) for k in range(THREADS)]
start = time.perf_counter()
for t in threads:
    t.start()
for t in threads:
    t.join()
elapsed = time.perf_counter() - start
print('checksum', sum(results))
print('time %.4f' % elapsed)
