# Independent: paper 004's countdown (Listing 6): `while n: n -= 1`, each
# thread counting down its share of SIZE. Usage: countdown.py THREADS [SIZE]
from _threads import args, run_threads, share

SIZE = 24000000


def countdown(n):
    while n:
        n -= 1
    return n


def main():
    threads, size = args(SIZE)
    starts = [len(share(k, threads, size)) for k in range(threads)]
    ends = run_threads(threads, lambda k: countdown(starts[k]))
    print(f"counted down {sum(starts)} to {sum(ends)}")


main()
