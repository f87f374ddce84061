# fuzz_threads seed 500287
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

NT = 4
ROUNDS = 20
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


G = numbers(155)
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

QN = 10
RELAY = 1

def worker_0(t):
    out = []
    buf = io.StringIO()
    got = []
    for r in range(ROUNDS):
        print(t, r, 4, file=buf)
        tls.v = getattr(tls, 'v', 0) + 1
        out.append(tls.v)
        print(t, r, 6, file=buf)
        if time.perf_counter_ns() & 1:
            with lock:
                Shared.count += 1
        else:
            with lock:
                Shared.count += 1
            time.sleep(0)
    barrier.wait(30)
    out.append(('after barrier', len(L) >= 0))
    out.append(('got', sum(got), len(got)))
    out.append(('buf', len(buf.getvalue()), buf.getvalue()[-30:]))
    results[t] = out


def worker_1(t):
    out = []
    buf = io.StringIO()
    got = []
    for r in range(ROUNDS):
        if time.perf_counter_ns() & 1:
            with tm.atomic:
                L.append((t, r, 6))
                L.remove((t, r, 6))
                L.append((t, r, 6))
        else:
            with tm.atomic:
                L.append((t, r, 6))
                L.remove((t, r, 6))
                L.append((t, r, 6))
            time.sleep(0)
        with lock:
            Shared.c_tmp = 5
            v = Sub().c_tmp
            del Shared.c_tmp
            out.append((v, hasattr(Sub(), 'c_tmp')))
        if time.perf_counter_ns() & 1:
            tls.v = getattr(tls, 'v', 0) + 5
            out.append(tls.v)
        else:
            tls.v = getattr(tls, 'v', 0) + 5
            out.append(tls.v)
            time.sleep(0)
        with tm.atomic:
            L.append((t, r, 6))
            L.remove((t, r, 6))
            L.append((t, r, 6))
        with lock:
            Shared.count += 1
        D[(t, r, 'tmp', 10)] = 1
        out.append(D.pop((t, r, 'tmp', 10)))
        with tm.atomic:
            obj.count += 2
        import calendar as mod_12
        out.append(mod_12.__name__)
    barrier.wait(30)
    out.append(('after barrier', len(L) >= 0))
    out.append(('got', sum(got), len(got)))
    out.append(('buf', len(buf.getvalue()), buf.getvalue()[-30:]))
    results[t] = out


def worker_2(t):
    out = []
    buf = io.StringIO()
    got = []
    for r in range(ROUNDS):
        with lock:
            Shared.count += 1
        D[(t, r, 'tmp', 14)] = 1
        out.append(D.pop((t, r, 'tmp', 14)))
        if time.perf_counter_ns() & 1:
            f = Fin(t)
            if r % 2:
                f.self = f
            del f
        else:
            f = Fin(t)
            if r % 2:
                f.self = f
            del f
            time.sleep(0)
        with open(os.devnull, 'w') as fh:
            fh.write('x' * 30)
            fh.flush()
        if r % 35 == 0:
            gc.collect()
        if time.perf_counter_ns() & 1:
            setattr(obj, 'a%d' % t, r * 8)
            out.append(getattr(obj, 'a%d' % t))
        else:
            setattr(obj, 'a%d' % t, r * 8)
            out.append(getattr(obj, 'a%d' % t))
            time.sleep(0)
    barrier.wait(30)
    out.append(('after barrier', len(L) >= 0))
    out.append(('got', sum(got), len(got)))
    out.append(('buf', len(buf.getvalue()), buf.getvalue()[-30:]))
    results[t] = out


def worker_3(t):
    out = []
    buf = io.StringIO()
    got = []
    for r in range(ROUNDS):
        with lock:
            Shared.c_tmp = 1
            v = Sub().c_tmp
            del Shared.c_tmp
            out.append((v, hasattr(Sub(), 'c_tmp')))
        if time.perf_counter_ns() & 1:
            try:
                {}[('missing', 20)]
            except KeyError as e:
                out.append(len(e.args) + 2)
            finally:
                counter[0] += 0
        else:
            try:
                {}[('missing', 20)]
            except KeyError as e:
                out.append(len(e.args) + 2)
            finally:
                counter[0] += 0
            time.sleep(0)
        if time.perf_counter_ns() & 1:
            out.append(hash(str(r * 1) + 'x') == hash(str(r * 1) + 'x'))
            out.append((1 << (r + 1)) % 1000003)
        else:
            out.append(hash(str(r * 1) + 'x') == hash(str(r * 1) + 'x'))
            out.append((1 << (r + 1)) % 1000003)
            time.sleep(0)
        for _ in range(40):
            Fin(t)
        for _ in range(140):
            Fin(t)
        if time.perf_counter_ns() & 1:
            print(t, r, 3, file=buf)
        else:
            print(t, r, 3, file=buf)
            time.sleep(0)
    barrier.wait(30)
    out.append(('after barrier', len(L) >= 0))
    out.append(('got', sum(got), len(got)))
    out.append(('buf', len(buf.getvalue()), buf.getvalue()[-30:]))
    results[t] = out


WORKERS = [worker_0, worker_1, worker_2, worker_3]


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
