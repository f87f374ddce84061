"""What every bench/parallel program shares: its command line (THREADS [SIZE])
and running one function per thread, each on its share of the same total work.
(The leading underscore keeps bench/parallel.py from taking it for a program.)"""
import sys
import threading


def args(default_size):
    """THREADS and SIZE from the command line: `prog.py THREADS [SIZE]`."""
    if len(sys.argv) < 2 or len(sys.argv) > 3:
        print(f"usage: {sys.argv[0]} THREADS [SIZE]  (SIZE: total work, default {default_size})",
              file=sys.stderr)
        sys.exit(2)
    threads = int(sys.argv[1])
    size = int(sys.argv[2]) if len(sys.argv) == 3 else default_size
    if threads < 1 or size < 1:
        print("THREADS and SIZE must be at least 1", file=sys.stderr)
        sys.exit(2)
    return threads, size


def share(k, threads, total):
    """Thread k's share of range(total): together the shares cover every item
    once, whatever the thread count, so the total work never changes."""
    return range(k * total // threads, (k + 1) * total // threads)


def run_threads(threads, work):
    """Runs work(k) for k = 0..threads-1, each in its own thread, started
    together at a barrier; returns their results in k order. A thread that
    raised (its traceback already printed) makes the program exit with 1."""
    results = [None] * threads
    done = [False] * threads
    start = threading.Barrier(threads)

    def body(k):
        start.wait()
        results[k] = work(k)
        done[k] = True

    workers = [threading.Thread(target=body, args=(k,)) for k in range(threads)]
    for t in workers:
        t.start()
    for t in workers:
        t.join()
    if not all(done):
        print("a worker thread failed", file=sys.stderr)
        sys.exit(1)
    return results
