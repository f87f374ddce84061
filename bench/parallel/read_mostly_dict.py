# Shared data: a read-mostly dict (a cache or a configuration): every thread
# looks up keys of a 1024-entry dict; one operation in 1000 is a write, which
# adds a key of the thread's own (so the result does not depend on timing).
# No lock, as a real program does (dict lookups and stores are atomic under
# the GIL). Usage: read_mostly_dict.py THREADS [SIZE]; SIZE operations in all.
from _threads import args, run_threads, share

SIZE = 7000000
BASE = 1024


def main():
    threads, size = args(SIZE)
    table = {i: 3 * i + 1 for i in range(BASE)}

    def look_up(k):
        total = 0
        for i in share(k, threads, size):
            if i % 1000 == 999:
                table[BASE + i] = i
            else:
                total += table[i & (BASE - 1)]
        return total

    totals = run_threads(threads, look_up)
    print(f"sum of lookups {sum(totals)}, {len(table)} keys")


main()
