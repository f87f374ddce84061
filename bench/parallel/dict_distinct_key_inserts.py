# Shared data: every thread inserts its own keys (no two threads the same key)
# into one dict, without a lock, as a real program does (a dict store is
# atomic under the GIL). Usage: dict_distinct_key_inserts.py THREADS [SIZE]
# SIZE inserts in all, shared out among the threads.
from _threads import args, run_threads, share

SIZE = 1600000


def main():
    threads, size = args(SIZE)
    table = {}

    def insert(k):
        for i in share(k, threads, size):
            table[i] = i

    run_threads(threads, insert)
    print(f"{len(table)} keys, sum of values {sum(table.values())}")


main()
