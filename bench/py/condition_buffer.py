"""Producer/consumer threads over a bounded buffer guarded by a threading.Condition.

Two producers put N items each into a buffer of CAPACITY slots; two consumers take them out.  Every
put and take waits on the condition while the buffer is full/empty and notifies the other side, so
the program measures Condition.wait/notify, lock hand-offs between threads and the thread switch.
Prints the checksum (the same under every interpreter) and, on stderr, the wall-clock time.
"""
import sys
import threading
import time

N = int(sys.argv[1]) if len(sys.argv) > 1 else 20000
CAPACITY = 16
PRODUCERS = 2
CONSUMERS = 2


class BoundedBuffer:
    def __init__(self, capacity):
        self.items = []
        self.capacity = capacity
        self.cond = threading.Condition()

    def put(self, item):
        with self.cond:
            while len(self.items) >= self.capacity:
                self.cond.wait()
            self.items.append(item)
            self.cond.notify()

    def take(self):
        with self.cond:
            while not self.items:
                self.cond.wait()
            item = self.items.pop(0)
            self.cond.notify()
            return item


def main():
    buf = BoundedBuffer(CAPACITY)
    per_consumer = N * PRODUCERS // CONSUMERS
    sums = [0] * CONSUMERS

    def produce(base):
        for i in range(N):
            buf.put(base + i)

    def consume(slot):
        total = 0
        for _ in range(per_consumer):
            total += buf.take()
        sums[slot] = total

    threads = [threading.Thread(target=produce, args=(p * N,)) for p in range(PRODUCERS)]
    threads += [threading.Thread(target=consume, args=(c,)) for c in range(CONSUMERS)]
    start = time.perf_counter()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    elapsed = time.perf_counter() - start
    expected = sum(range(N * PRODUCERS))
    print('items', N * PRODUCERS, 'checksum ok' if sum(sums) == expected else 'checksum WRONG')
    print('%.3f s' % elapsed, file=sys.stderr)


main()
