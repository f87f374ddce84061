# fuzz_threads seed 100002
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

NT = 8
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


G = numbers(155)

QN = 6
RELAY = 2

def worker_0(t):
    out = []
    buf = io.StringIO()
    got = []
    for r in range(ROUNDS):
        if time.perf_counter_ns() & 1:
            with lock:
                c = counter[0]
                time.sleep(0)
                counter[0] = c + 3
        else:
            with lock:
                c = counter[0]
                time.sleep(0)
                counter[0] = c + 3
            time.sleep(0)
        with lock:
            counter[0] += 1
        with lock:
            counter[0] += 5
        f = Fin(t)
        if r % 2:
            f.self = f
        del f
        with rlock:
            with rlock:
                counter[0] += 0
                obj.__dict__.setdefault('a_r', 0)
        D[(t, r, 'tmp', 6)] = 1
        out.append(D.pop((t, r, 'tmp', 6)))
        setattr(obj, 'a%d' % t, r * 6)
        out.append(getattr(obj, 'a%d' % t))
    barrier.wait(30)
    out.append(('after barrier', len(L) >= 0))
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
        if time.perf_counter_ns() & 1:
            with tm.atomic:
                time.sleep(0)
                obj.count += 2
        else:
            with tm.atomic:
                time.sleep(0)
                obj.count += 2
            time.sleep(0)
        try:
            try:
                raise ValueError(8)
            except ValueError as e:
                raise FuzzError('wrapped') from e
        except FuzzError as e:
            out.append((str(e), type(e.__cause__).__name__))
        with lock:
            Shared.count += 1
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
        try:
            {}[('missing', 12)]
        except KeyError as e:
            out.append(len(e.args) + 6)
        finally:
            counter[0] += 0
        with tm.atomic:
            L.append((t, r, 1))
            L.remove((t, r, 1))
            L.append((t, r, 1))
        if time.perf_counter_ns() & 1:
            with rlock:
                with rlock:
                    counter[0] += 0
                    obj.__dict__.setdefault('a_r', 0)
        else:
            with rlock:
                with rlock:
                    counter[0] += 0
                    obj.__dict__.setdefault('a_r', 0)
            time.sleep(0)
        if time.perf_counter_ns() & 1:
            with lock:
                c = counter[0]
                time.sleep(0)
                counter[0] = c + 8
        else:
            with lock:
                c = counter[0]
                time.sleep(0)
                counter[0] = c + 8
            time.sleep(0)
    barrier.wait(30)
    out.append(('after barrier', len(L) >= 0))
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
        L.append((t, r, 5))
        with lock:
            Shared.count += 1
        with tm.atomic:
            obj.count += 6
        out.append(list(map(lambda x: x + 3, range(r % 5))))
        out.append(sorted(range(r % 6), key=lambda x: -x))
        with lock:
            Shared.count += 1
        with tm.atomic:
            obj.count += 8
    barrier.wait(30)
    out.append(('after barrier', len(L) >= 0))
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
        with dlock:
            D2[4] = D2.get(4, 0) + 1
        with glock:
            v = next(G, None)
        if v is not None:
            GV.append(v)
        try:
            with tm.atomic:
                obj.count += 6
                if r % 3 == 0:
                    raise FuzzError(r)
        except FuzzError as e:
            out.append(('caught', e.args[0]))
        if time.perf_counter_ns() & 1:
            D[(t, r, 25)] = 4
        else:
            D[(t, r, 25)] = 4
            time.sleep(0)
        with dlock:
            D2[5] = D2.get(5, 0) + 1
        with tm.atomic:
            time.sleep(0)
            obj.count += 7
    barrier.wait(30)
    out.append(('after barrier', len(L) >= 0))
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


def worker_4(t):
    out = []
    buf = io.StringIO()
    got = []
    for r in range(ROUNDS):
        with lock:
            Shared.count += 1
        try:
            try:
                raise ValueError(3)
            except ValueError as e:
                raise FuzzError('wrapped') from e
        except FuzzError as e:
            out.append((str(e), type(e.__cause__).__name__))
        try:
            with tm.atomic:
                obj.count += 3
                if r % 3 == 0:
                    raise FuzzError(r)
        except FuzzError as e:
            out.append(('caught', e.args[0]))
        time.sleep(0)
        out.append(sum(x * x for x in range(r % 7 + 7)))
        out.append(list(nested(r % 4)))
        if time.perf_counter_ns() & 1:
            out.append(hash(str(r * 8) + 'x') == hash(str(r * 8) + 'x'))
            out.append((1 << (r + 8)) % 1000003)
        else:
            out.append(hash(str(r * 8) + 'x') == hash(str(r * 8) + 'x'))
            out.append((1 << (r + 8)) % 1000003)
            time.sleep(0)
    barrier.wait(30)
    out.append(('after barrier', len(L) >= 0))
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


def worker_5(t):
    out = []
    buf = io.StringIO()
    got = []
    for r in range(ROUNDS):
        S.add((t, r % 9))
        S.discard((t, -1))
        f = Fin(t)
        if r % 2:
            f.self = f
        del f
    barrier.wait(30)
    out.append(('after barrier', len(L) >= 0))
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


def worker_6(t):
    out = []
    buf = io.StringIO()
    got = []
    for r in range(ROUNDS):
        if time.perf_counter_ns() & 1:
            out.append(sum(x * x for x in range(r % 7 + 1)))
            out.append(list(nested(r % 4)))
        else:
            out.append(sum(x * x for x in range(r % 7 + 1)))
            out.append(list(nested(r % 4)))
            time.sleep(0)
        with tm.atomic:
            bank.a += 5
            bank.b -= 5
            out.append(bank.a + bank.b)
    barrier.wait(30)
    out.append(('after barrier', len(L) >= 0))
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


def worker_7(t):
    out = []
    buf = io.StringIO()
    got = []
    for r in range(ROUNDS):
        try:
            with lock:
                counter[0] += 7
                raise KeyError(38)
        except KeyError as e:
            got.append(e.args[0])
        with lock:
            c = counter[0]
            time.sleep(0)
            counter[0] = c + 4
        print(t, r, 5, file=buf)
        try:
            with tm.atomic:
                obj.count += 3
                if r % 3 == 0:
                    raise FuzzError(r)
        except FuzzError as e:
            out.append(('caught', e.args[0]))
        if time.perf_counter_ns() & 1:
            with tm.atomic:
                L.append((t, r, 4))
                L.remove((t, r, 4))
                L.append((t, r, 4))
        else:
            with tm.atomic:
                L.append((t, r, 4))
                L.remove((t, r, 4))
                L.append((t, r, 4))
            time.sleep(0)
        with lock:
            counter[0] += 7
        if time.perf_counter_ns() & 1:
            time.sleep(0)
        else:
            time.sleep(0)
            time.sleep(0)
    barrier.wait(30)
    out.append(('after barrier', len(L) >= 0))
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


WORKERS = [worker_0, worker_1, worker_2, worker_3, worker_4, worker_5, worker_6, worker_7]


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
