# fuzz_threads seed 400006
import collections
import gc
import io
import weakref
import os
import queue
import sys
import threading
import time

try:
    import tm
except ImportError:
    class tm:
        """python3's stand-in for tmpy's tm module: blocks exclude each other."""
        atomic = threading.RLock()

NT = 3
ROUNDS = 120
lock = threading.Lock()
rlock = threading.RLock()
dlock = threading.Lock()
glock = threading.Lock()
counter = [0]
L = []
D = {}
D2 = {}
S = set()
dels = []
GV = []
results = [None] * NT
queues = [queue.Queue() for _ in range(NT)]
barrier = threading.Barrier(NT)
turn = [0]
cond = threading.Condition()


class Shared:
    count = 0

    def meth(self):
        return 0


class Sub(Shared):
    pass


def make_meth(v):
    def meth(self):
        return v
    return meth


BIG = [0] * 3000
DQ = collections.deque()
tls = threading.local()
wcalls = []
wrefs = []


class Target:
    pass


class Obj:
    pass


obj = Obj()
obj.count = 0
bank = Obj()
bank.a = 0
bank.b = 0


class Fin:
    def __init__(self, t):
        self.t = t

    def __del__(self):
        dels.append(self.t)


class FuzzError(Exception):
    pass


def numbers(n):
    for i in range(n):
        yield i * 3 + 1


def nested(n):
    yield from numbers(n)
    try:
        yield -1
    finally:
        pass


G = numbers(194)
flags = [0] * NT
spin_end = []   # one deadline for all spinners, set after the barrier before the spin


def spin_until_all(_):
    """Spins (no blocking call) until every thread set its flag: python3 and
    the GIL switch threads; under the STM the spinning transaction must
    commit to see the other threads' writes."""
    while not all(flags):
        if time.monotonic() > spin_end[0]:
            return False
    return True

QN = 3
RELAY = 1

def worker_0(t):
    out = []
    buf = io.StringIO()
    got = []
    for r in range(ROUNDS):
        with dlock:
            D2[8] = D2.get(8, 0) + 1
        if r % 5 == 0:
            gc.collect()
        if time.perf_counter_ns() & 1:
            time.sleep(0)
        else:
            time.sleep(0)
            time.sleep(0)
        if time.perf_counter_ns() & 1:
            with tm.atomic:
                bank.a += 8
                bank.b -= 8
                out.append(bank.a + bank.b)
        else:
            with tm.atomic:
                bank.a += 8
                bank.b -= 8
                out.append(bank.a + bank.b)
            time.sleep(0)
        with tm.atomic:
            obj.count += 3
        with dlock:
            D2[1] = D2.get(1, 0) + 1
    for i in range(QN):
        queues[(t + 1) % NT].put((t, i))
        out.append(queues[t].get(timeout=30))
    barrier.wait(30)
    with glock:
        if not spin_end:
            spin_end.append(time.monotonic() + 5)
    print(end='', flush=True)
    flags[t] = 1
    out.append(('spin', list(map(spin_until_all, [0]))))
    for i in range(RELAY):
        with cond:
            while turn[0] % NT != t:
                if not cond.wait(30):
                    print('relay timeout', t)
                    return
            print('relay', t, i, sum(got), len(out))
            sys.stdout.flush()
            turn[0] += 1
            cond.notify_all()
    out.append(('got', sum(got), len(got)))
    out.append(('buf', len(buf.getvalue()), buf.getvalue()[-30:]))
    results[t] = out


def worker_1(t):
    out = []
    buf = io.StringIO()
    got = []
    for r in range(ROUNDS):
        DQ.append((t, r, 3))
        if len(DQ) > 50:
            try:
                DQ.popleft()
            except IndexError:
                pass
        with lock:
            Shared.count += 1
        if time.perf_counter_ns() & 1:
            with dlock:
                D2[6] = D2.get(6, 0) + 1
        else:
            with dlock:
                D2[6] = D2.get(6, 0) + 1
            time.sleep(0)
        if time.perf_counter_ns() & 1:
            try:
                with tm.atomic:
                    obj.count += 2
                    if r % 3 == 0:
                        raise FuzzError(r)
            except FuzzError as e:
                out.append(('caught', e.args[0]))
        else:
            try:
                with tm.atomic:
                    obj.count += 2
                    if r % 3 == 0:
                        raise FuzzError(r)
            except FuzzError as e:
                out.append(('caught', e.args[0]))
            time.sleep(0)
        if time.perf_counter_ns() & 1:
            try:
                {}[('missing', 11)]
            except KeyError as e:
                out.append(len(e.args) + 3)
            finally:
                counter[0] += 0
        else:
            try:
                {}[('missing', 11)]
            except KeyError as e:
                out.append(len(e.args) + 3)
            finally:
                counter[0] += 0
            time.sleep(0)
        with lock:
            counter[0] += 2
    for i in range(QN):
        queues[(t + 1) % NT].put((t, i))
        out.append(queues[t].get(timeout=30))
    barrier.wait(30)
    with glock:
        if not spin_end:
            spin_end.append(time.monotonic() + 5)
    print(end='', flush=True)
    flags[t] = 1
    out.append(('spin', list(map(spin_until_all, [0]))))
    for i in range(RELAY):
        with cond:
            while turn[0] % NT != t:
                if not cond.wait(30):
                    print('relay timeout', t)
                    return
            print('relay', t, i, sum(got), len(out))
            sys.stdout.flush()
            turn[0] += 1
            cond.notify_all()
    out.append(('got', sum(got), len(got)))
    out.append(('buf', len(buf.getvalue()), buf.getvalue()[-30:]))
    results[t] = out


def worker_2(t):
    out = []
    buf = io.StringIO()
    got = []
    for r in range(ROUNDS):
        if time.perf_counter_ns() & 1:
            with open(os.devnull, 'w') as fh:
                fh.write('x' * 10)
                fh.flush()
        else:
            with open(os.devnull, 'w') as fh:
                fh.write('x' * 10)
                fh.flush()
            time.sleep(0)
        D[(t, r, 'tmp', 14)] = 1
        out.append(D.pop((t, r, 'tmp', 14)))
        L.append((t, r, 5))
        with tm.atomic:
            obj.count += 7
        print(t, r, 3, file=buf)
        print(t, r, 3, file=buf)
    for i in range(QN):
        queues[(t + 1) % NT].put((t, i))
        out.append(queues[t].get(timeout=30))
    barrier.wait(30)
    with glock:
        if not spin_end:
            spin_end.append(time.monotonic() + 5)
    print(end='', flush=True)
    flags[t] = 1
    out.append(('spin', list(map(spin_until_all, [0]))))
    for i in range(RELAY):
        with cond:
            while turn[0] % NT != t:
                if not cond.wait(30):
                    print('relay timeout', t)
                    return
            print('relay', t, i, sum(got), len(out))
            sys.stdout.flush()
            turn[0] += 1
            cond.notify_all()
    out.append(('got', sum(got), len(got)))
    out.append(('buf', len(buf.getvalue()), buf.getvalue()[-30:]))
    results[t] = out


WORKERS = [worker_0, worker_1, worker_2]


threads = [threading.Thread(target=w, args=(t,)) for t, w in enumerate(WORKERS)]
for th in threads:
    th.start()
for th in threads:
    th.join(50)
    if th.is_alive():
        print("HUNG", th.name)
        sys.stdout.flush()
        os._exit(3)
print("counter", counter[0])
print("obj.count", obj.count, "Shared.count", Shared.count)
print("bank", bank.a, bank.b)
print("L", len(L), sorted(L)[:20], sum(x[2] for x in L))
print("D", len(D), sum(D.values()), sorted(D2.items()))
print("S", len(S), sorted(S)[:20])
print("attrs", sorted((k, v) for k, v in vars(obj).items() if k.startswith("a")))
print("cls", sorted((k, v) for k, v in vars(Shared).items() if k.startswith("c_")))
print("G", len(GV), sum(GV), "rest", sum(G))
print("BIG", sum(BIG), BIG.index(max(BIG)) if max(BIG) else -1, "DQ", len(DQ) >= 0)
for t, r in enumerate(results):
    print("thread", t, r)
for _ in range(3):
    gc.collect()
print("dels", len(dels), sorted(set(dels)), "weakref callbacks", len(wcalls),
      sum(w() is None for w in wrefs))
