# Independent: paper 001's Iterator loop (Figure 4): x += i over a for loop
# on a range, each thread on its own share of 0..SIZE-1.
# Usage: iterator_loop.py THREADS [SIZE]
from _threads import args, run_threads, share

SIZE = 30000000


def iterator_loop(numbers):
    x = 0
    for i in numbers:
        x += i
    return x


def main():
    threads, size = args(SIZE)
    print("sum", sum(run_threads(threads, lambda k: iterator_loop(share(k, threads, size)))))


main()
