# Shared data: one big dict of counters, every thread bumps the counters of
# its own keys (no two threads the same key), without a lock: a dict
# lookup and a store of an existing key are each atomic under the GIL, and
# no other thread writes these keys. Usage: dict_value_updates.py THREADS [SIZE]
# SIZE updates in all, shared out among the threads.
from _threads import args, run_threads, share

SIZE = 1600000
KEYS = 200000


def main():
    threads, size = args(SIZE)
    counts = dict.fromkeys(range(KEYS), 0)

    def work(k):
        mine = share(k, threads, KEYS)
        for r in range(size // KEYS):
            for key in mine:
                counts[key] += 1

    run_threads(threads, work)
    print(f"{len(counts)} keys, sum of counts {sum(counts.values())}")


main()
