# Shared data: a producer/consumer pipeline through one bounded queue.Queue.
# THREADS producers put their share of SIZE items; THREADS consumers (so
# 2 * THREADS threads in all) take them, compute on each and keep a sum.
# Each producer ends its items with one None; each consumer stops at its
# first None (the queue is FIFO, so every item is taken before the last None).
# Usage: queue_pipeline.py THREADS [SIZE]
import queue

from _threads import args, run_threads, share

SIZE = 160000


def main():
    threads, size = args(SIZE)
    items = queue.Queue(maxsize=256)

    def produce(k):
        for i in share(k, threads, size):
            items.put(i)
        items.put(None)
        return 0, 0

    def consume():
        count = total = 0
        while (x := items.get()) is not None:
            total += (x * x) % 1000003
            count += 1
        return count, total

    def role(k):
        return produce(k) if k < threads else consume()

    results = run_threads(2 * threads, role)
    print(f"{sum(c for c, _ in results)} items, checksum {sum(t for _, t in results)}")


main()
