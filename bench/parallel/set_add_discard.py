# Shared data: every thread adds elements of its own to one set and
# discards half of them again, without a lock (set.add and set.discard are
# atomic under the GIL). Usage: set_add_discard.py THREADS [SIZE]
# SIZE adds in all, shared out among the threads.
from _threads import args, run_threads, share

SIZE = 1600000


def main():
    threads, size = args(SIZE)
    elements = set(range(-200000, 0))   # a big table from the start

    def work(k):
        mine = share(k, threads, size)
        for i in mine:
            elements.add(i)
        for i in mine[::2]:
            elements.discard(i)

    run_threads(threads, work)
    print(f"{len(elements)} elements, sum {sum(elements)}")


main()
