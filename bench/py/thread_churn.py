# Threads started and joined three at a time, 1500 in all: the cost of a thread's life (attach, a segment,
# the first transactions' privatised pages, the re-share when the joiner goes solo).
import threading, time
def f(): pass
t0 = time.perf_counter(); c0 = time.process_time()
for i in range(500):
    ts = [threading.Thread(target=f) for _ in range(3)]
    for t in ts: t.start()
    for t in ts: t.join()
print("wall %.3f cpu %.3f" % (time.perf_counter() - t0, time.process_time() - c0))
