"""Producer/consumer threads over a bounded buffer guarded by a threading.Condition.

  condition_buffer.py [PRODUCERS CONSUMERS CAPACITY NOTIFY ITEMS [SWITCH_INTERVAL]]

PRODUCERS threads put ITEMS items each into a list of at most CAPACITY items; CONSUMERS threads take
them out. Every put and take waits on the one condition while the buffer is full (empty) and then
wakes waiters with notify() (NOTIFY=one) or notify_all() (NOTIFY=all), so the program measures
Condition.wait/notify, lock handoffs between threads and the thread switch. Defaults: 4 4 8 one 5000
(and the interpreter's switch interval, 5 ms, unless SWITCH_INTERVAL seconds are given).
Prints whether every item arrived exactly once and the wall-clock time of the threaded part.
"""
import sys
import threading
import time

args = sys.argv[1:] or ['4', '4', '8', 'one', '5000']
PRODUCERS, CONSUMERS, CAPACITY = int(args[0]), int(args[1]), int(args[2])
NOTIFY_ALL = args[3] == 'all'
ITEMS = int(args[4])
if len(args) > 5:
    sys.setswitchinterval(float(args[5]))


class BoundedBuffer:
    def __init__(self, capacity):
        self.items = []
        self.capacity = capacity
        self.cond = threading.Condition()

    def _wake(self):
        if NOTIFY_ALL:
            self.cond.notify_all()
        else:
            self.cond.notify()

    def put(self, item):
        with self.cond:
            while len(self.items) >= self.capacity:
                self.cond.wait()
            self.items.append(item)
            self._wake()

    def take(self):
        with self.cond:
            while not self.items:
                self.cond.wait()
            item = self.items.pop(0)
            self._wake()
            return item


def main():
    buf = BoundedBuffer(CAPACITY)
    total = PRODUCERS * ITEMS
    shares = [total // CONSUMERS + (c < total % CONSUMERS) for c in range(CONSUMERS)]
    # One byte per item, not a list of them: a big list written by every consumer would be traced
    # whole at each GIL handoff's minor collection in tmpy-gil (no card marking), which measures the
    # GC, not the Condition (see bench/results/condition_buffer.txt).
    seen = bytearray(total)

    def produce(p):
        for i in range(ITEMS):
            buf.put(p * ITEMS + i)

    def consume(c):
        for _ in range(shares[c]):
            seen[buf.take()] += 1

    threads = [threading.Thread(target=produce, args=(p,)) for p in range(PRODUCERS)]
    threads += [threading.Thread(target=consume, args=(c,)) for c in range(CONSUMERS)]
    start = time.perf_counter()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    elapsed = time.perf_counter() - start
    print('items', total, 'each once' if seen.count(1) == total else 'LOST OR DUPLICATED')
    print('time %.4f' % elapsed)


main()
