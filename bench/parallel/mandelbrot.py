# Independent: the Mandelbrot set on a SIZE x SIZE grid (at most 100
# iterations a point), in floats; thread k takes rows k, k + THREADS, ...
# (interleaved, so each thread gets as many slow middle rows as the others)
# and keeps its own totals. Usage: mandelbrot.py THREADS [SIZE]
from _threads import args, run_threads

SIZE = 320
MAX_ITER = 100


def row_iterations(y, size):
    ci = 2.0 * y / size - 1.0
    total = inside = 0
    for x in range(size):
        cr = 3.0 * x / size - 2.0
        zr = zi = 0.0
        n = 0
        while n < MAX_ITER and zr * zr + zi * zi <= 4.0:
            zr, zi = zr * zr - zi * zi + cr, 2.0 * zr * zi + ci
            n += 1
        total += n
        if n == MAX_ITER:
            inside += 1
    return total, inside


def main():
    threads, size = args(SIZE)

    def rows(k):
        total = inside = 0
        for y in range(k, size, threads):
            t, i = row_iterations(y, size)
            total += t
            inside += i
        return total, inside

    results = run_threads(threads, rows)
    print(f"{sum(t for t, _ in results)} iterations, {sum(i for _, i in results)} points inside")


main()
