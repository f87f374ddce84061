# Independent: paper 001's While loop (Figure 4): x += i over a while loop,
# each thread on its own share of 0..SIZE-1 and its own locals.
# Usage: while_loop.py THREADS [SIZE]
from _threads import args, run_threads, share

SIZE = 14000000


def while_loop(lo, hi):
    x = 0
    i = lo
    while i < hi:
        x += i
        i += 1
    return x


def main():
    threads, size = args(SIZE)

    def work(k):
        part = share(k, threads, size)
        return while_loop(part.start, part.stop)

    print("sum", sum(run_threads(threads, work)))


main()
