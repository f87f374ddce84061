# fuzz_threads seed 103667
import gc
import io
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


G = numbers(92)

QN = 29
RELAY = 1

def worker_0(t):
    out = []
    buf = io.StringIO()
    got = []
    for r in range(ROUNDS):
        L.append((t, r, 5))
        print(t, r, 4, file=buf)
        if r % 5 == 0:
            gc.collect()
        if time.perf_counter_ns() & 1:
            with lock:
                Shared.count += 1
        else:
            with lock:
                Shared.count += 1
            time.sleep(0)
    for i in range(QN):
        queues[(t + 1) % NT].put((t, i))
        out.append(queues[t].get(timeout=30))
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
        S.add((t, r % 6))
        S.discard((t, -1))
        try:
            {}[('missing', 6)]
        except KeyError as e:
            out.append(len(e.args) + 8)
        finally:
            counter[0] += 0
        f = Fin(t)
        if r % 2:
            f.self = f
        del f
        with glock:
            v = next(G, None)
        if v is not None:
            GV.append(v)
        if r % 10 == 0:
            gc.collect()
        setattr(Shared, 'c_%d' % t, r + 3)
        D[(t, r, 'tmp', 11)] = 1
        out.append(D.pop((t, r, 'tmp', 11)))
    for i in range(QN):
        queues[(t + 1) % NT].put((t, i))
        out.append(queues[t].get(timeout=30))
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
        with tm.atomic:
            bank.a += 7
            bank.b -= 7
            out.append(bank.a + bank.b)
        try:
            try:
                raise ValueError(8)
            except ValueError as e:
                raise FuzzError('wrapped') from e
        except FuzzError as e:
            out.append((str(e), type(e.__cause__).__name__))
        if time.perf_counter_ns() & 1:
            S.add((t, r % 5))
            S.discard((t, -1))
        else:
            S.add((t, r % 5))
            S.discard((t, -1))
            time.sleep(0)
        if time.perf_counter_ns() & 1:
            out.append(hash(str(r * 8) + 'x') == hash(str(r * 8) + 'x'))
            out.append((1 << (r + 8)) % 1000003)
        else:
            out.append(hash(str(r * 8) + 'x') == hash(str(r * 8) + 'x'))
            out.append((1 << (r + 8)) % 1000003)
            time.sleep(0)
        with lock:
            c = counter[0]
            time.sleep(0)
            counter[0] = c + 8
        with rlock:
            with rlock:
                counter[0] += 0
                obj.__dict__.setdefault('a_r', 0)
    for i in range(QN):
        queues[(t + 1) % NT].put((t, i))
        out.append(queues[t].get(timeout=30))
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


def worker_3(t):
    out = []
    buf = io.StringIO()
    got = []
    for r in range(ROUNDS):
        with open(os.devnull, 'w') as fh:
            fh.write('x' * 60)
            fh.flush()
        out.append(sum(x * x for x in range(r % 7 + 5)))
        out.append(list(nested(r % 4)))
        with rlock:
            with rlock:
                counter[0] += 0
                obj.__dict__.setdefault('a_r', 0)
        with open(os.devnull, 'w') as fh:
            fh.write('x' * 20)
            fh.flush()
        with tm.atomic:
            L.append((t, r, 3))
            L.remove((t, r, 3))
            L.append((t, r, 3))
        if time.perf_counter_ns() & 1:
            L.append((t, r, 1))
        else:
            L.append((t, r, 1))
            time.sleep(0)
    for i in range(QN):
        queues[(t + 1) % NT].put((t, i))
        out.append(queues[t].get(timeout=30))
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
for t, r in enumerate(results):
    print("thread", t, r)
for _ in range(3):
    gc.collect()
print("dels", len(dels), sorted(set(dels)))
