# threading.local under preemption: threads switch in the middle of
# methods, properties and augmented assignments on a shared local object;
# each thread must only ever see its own attributes.
import sys
import threading

saved_interval = sys.getswitchinterval()
sys.setswitchinterval(0.0001)


class State(threading.local):
    def __init__(self, base):
        self.base = base
        self.count = 0
        self.log = []

    @property
    def total(self):
        s = 0
        for i in range(50):  # a back-edge: other threads may run here
            s += 1
        return self.base + self.count + s - 50

    def bump(self, k):
        for _ in range(20):
            pass
        self.count += k
        self.log.append(k)
        return self.count


state = State(1000)
lock = threading.Lock()
errors = []
finals = {}


def worker(tid):
    state.base = tid * 100000
    expect = 0
    for i in range(300):
        expect += tid
        got = state.bump(tid)
        if got != expect or state.total != tid * 100000 + expect:
            with lock:
                errors.append((tid, i))
        state.count += 0  # load and store around a possible switch
    with lock:
        finals[tid] = (state.count, len(state.log), sum(state.log))


ts = [threading.Thread(target=worker, args=(t,)) for t in range(1, 7)]
for t in ts:
    t.start()
for t in ts:
    t.join()
print("errors", errors)
for tid in sorted(finals):
    print(tid, finals[tid])
print("main untouched", state.base, state.count, state.log)
sys.setswitchinterval(saved_interval)
