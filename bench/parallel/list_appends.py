# Shared data: every thread appends its share of SIZE numbers to one list,
# without a lock (list.append is atomic under the GIL).
# Usage: list_appends.py THREADS [SIZE]
from _threads import args, run_threads, share

SIZE = 3200000


def main():
    threads, size = args(SIZE)
    out = []

    def append(k):
        for i in share(k, threads, size):
            out.append(i)

    run_threads(threads, append)
    print(f"{len(out)} items, sum {sum(out)}, sum of squares {sum(x * x for x in out)}")


main()
