# Shared data, the program of issue 20: every thread inserts its own keys
# into one dict (no lock) and bumps 16 shared counters under one
# threading.Lock. Usage: dict_inserts_and_locked_counters.py THREADS [SIZE]
# SIZE inserts (and as many increments) in all.
import threading

from _threads import args, run_threads, share

SIZE = 600000


def main():
    threads, size = args(SIZE)
    table = {}
    counters = [0] * 16
    lock = threading.Lock()

    def work(k):
        for i in share(k, threads, size):
            table[i] = i
            with lock:
                counters[i & 15] += 1

    run_threads(threads, work)
    print(f"{len(table)} keys, sum of values {sum(table.values())}, counters {counters}")


main()
