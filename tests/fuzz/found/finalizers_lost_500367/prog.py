# fuzz_threads seed 500367
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

NT = 7
ROUNDS = 50
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


G = numbers(293)
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

QN = 27
RELAY = 2

def worker_0(t):
    out = []
    buf = io.StringIO()
    got = []
    for r in range(ROUNDS):
        print(t, r, 2, file=buf)
        out.append(hash(str(r * 5) + 'x') == hash(str(r * 5) + 'x'))
        out.append((1 << (r + 5)) % 1000003)
        try:
            with lock:
                counter[0] += 6
                raise KeyError(3)
        except KeyError as e:
            got.append(e.args[0])
        S.add((t, r % 9))
        S.discard((t, -1))
        if time.perf_counter_ns() & 1:
            print(t, r, 2, file=buf)
        else:
            print(t, r, 2, file=buf)
            time.sleep(0)
        if time.perf_counter_ns() & 1:
            with open(os.devnull, 'w') as fh:
                fh.write('x' * 40)
                fh.flush()
        else:
            with open(os.devnull, 'w') as fh:
                fh.write('x' * 40)
                fh.flush()
            time.sleep(0)
        with tm.atomic:
            L.append((t, r, 6))
            L.remove((t, r, 6))
            L.append((t, r, 6))
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
        import difflib as mod_8
        out.append(mod_8.__name__)
        out.append(sum(x * x for x in range(r % 7 + 1)))
        out.append(list(nested(r % 4)))
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
        o = Target()
        w = weakref.ref(o, lambda _: wcalls.append(1))
        out.append(w() is o)
        wrefs.append(w)
        del o, w
        setattr(Shared, 'c_%d' % t, r + 5)
        print(t, r, 1, file=buf)
        if time.perf_counter_ns() & 1:
            try:
                try:
                    raise ValueError(7)
                except ValueError as e:
                    raise FuzzError('wrapped') from e
            except FuzzError as e:
                out.append((str(e), type(e.__cause__).__name__))
        else:
            try:
                try:
                    raise ValueError(7)
                except ValueError as e:
                    raise FuzzError('wrapped') from e
            except FuzzError as e:
                out.append((str(e), type(e.__cause__).__name__))
            time.sleep(0)
        if time.perf_counter_ns() & 1:
            if r % 5 == 0:
                gc.collect()
        else:
            if r % 5 == 0:
                gc.collect()
            time.sleep(0)
        with tm.atomic:
            obj.count += 4
        if time.perf_counter_ns() & 1:
            D[(t, r, 16)] = 2
        else:
            D[(t, r, 16)] = 2
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


def worker_3(t):
    out = []
    buf = io.StringIO()
    got = []
    for r in range(ROUNDS):
        for _ in range(60):
            Fin(t)
        if time.perf_counter_ns() & 1:
            with tm.atomic:
                with tm.atomic:
                    obj.count += 2
                bank.a += 1
                bank.b -= 1
        else:
            with tm.atomic:
                with tm.atomic:
                    obj.count += 2
                bank.a += 1
                bank.b -= 1
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


def worker_4(t):
    out = []
    buf = io.StringIO()
    got = []
    for r in range(ROUNDS):
        try:
            with lock:
                counter[0] += 2
                raise KeyError(19)
        except KeyError as e:
            got.append(e.args[0])
        out.append(sum(x * x for x in range(r % 7 + 4)))
        out.append(list(nested(r % 4)))
        if time.perf_counter_ns() & 1:
            tls.v = getattr(tls, 'v', 0) + 6
            out.append(tls.v)
        else:
            tls.v = getattr(tls, 'v', 0) + 6
            out.append(tls.v)
            time.sleep(0)
        with open(os.devnull, 'w') as fh:
            fh.write('x' * 50)
            fh.flush()
        DQ.append((t, r, 5))
        if len(DQ) > 50:
            try:
                DQ.popleft()
            except IndexError:
                pass
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
        with rlock:
            with rlock:
                counter[0] += 0
                obj.__dict__.setdefault('a_r', 0)
        with open(os.devnull, 'w') as fh:
            fh.write('x' * 70)
            fh.flush()
        if time.perf_counter_ns() & 1:
            out.append(list(map(lambda x: x + 6, range(r % 5))))
            out.append(sorted(range(r % 6), key=lambda x: -x))
        else:
            out.append(list(map(lambda x: x + 6, range(r % 5))))
            out.append(sorted(range(r % 6), key=lambda x: -x))
            time.sleep(0)
        if time.perf_counter_ns() & 1:
            tls.v = getattr(tls, 'v', 0) + 7
            out.append(tls.v)
        else:
            tls.v = getattr(tls, 'v', 0) + 7
            out.append(tls.v)
            time.sleep(0)
        setattr(obj, 'a%d' % t, r * 3)
        out.append(getattr(obj, 'a%d' % t))
        if time.perf_counter_ns() & 1:
            with tm.atomic:
                time.sleep(0)
                obj.count += 7
        else:
            with tm.atomic:
                time.sleep(0)
                obj.count += 7
            time.sleep(0)
        if time.perf_counter_ns() & 1:
            S.add((t, r % 8))
            S.discard((t, -1))
        else:
            S.add((t, r % 8))
            S.discard((t, -1))
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


def worker_6(t):
    out = []
    buf = io.StringIO()
    got = []
    for r in range(ROUNDS):
        if time.perf_counter_ns() & 1:
            with lock:
                Shared.c_tmp = 6
                v = Sub().c_tmp
                del Shared.c_tmp
                out.append((v, hasattr(Sub(), 'c_tmp')))
        else:
            with lock:
                Shared.c_tmp = 6
                v = Sub().c_tmp
                del Shared.c_tmp
                out.append((v, hasattr(Sub(), 'c_tmp')))
            time.sleep(0)
        o = Target()
        w = weakref.ref(o, lambda _: wcalls.append(1))
        out.append(w() is o)
        wrefs.append(w)
        del o, w
        L.append((t, r, 2))
        DQ.append((t, r, 7))
        if len(DQ) > 50:
            try:
                DQ.popleft()
            except IndexError:
                pass
        time.sleep(0)
        setattr(obj, 'a%d' % t, r * 6)
        out.append(getattr(obj, 'a%d' % t))
        print(t, r, 4, file=buf)
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


WORKERS = [worker_0, worker_1, worker_2, worker_3, worker_4, worker_5, worker_6]


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
