# Shared data: 16 counters in one list, every increment under one
# threading.Lock (the lock every thread contends for).
# Usage: locked_counters.py THREADS [SIZE]; SIZE increments in all.
import threading

from _threads import args, run_threads, share

SIZE = 2400000


def main():
    threads, size = args(SIZE)
    counters = [0] * 16
    lock = threading.Lock()

    def bump(k):
        for i in share(k, threads, size):
            with lock:
                counters[i & 15] += 1

    run_threads(threads, bump)
    print("counters", counters)


main()
