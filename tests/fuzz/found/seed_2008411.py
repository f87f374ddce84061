# fuzz_threads seed 2008411
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


G = numbers(151)
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

QN = 16
RELAY = 1

def worker_0(t):
    out = []
    buf = io.StringIO()
    got = []
    for r in range(ROUNDS):
        try:
            try:
                raise ValueError(7)
            except ValueError as e:
                raise FuzzError('wrapped') from e
        except FuzzError as e:
            out.append((str(e), type(e.__cause__).__name__))
        if time.perf_counter_ns() & 1:
            S.add((t, r % 3))
            S.discard((t, -1))
        else:
            S.add((t, r % 3))
            S.discard((t, -1))
            time.sleep(0)
        with dlock:
            D2[8] = D2.get(8, 0) + 1
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
        try:
            with tm.atomic:
                obj.count += 5
                if r % 3 == 0:
                    raise FuzzError(r)
        except FuzzError as e:
            out.append(('caught', e.args[0]))
        with lock:
            c = counter[0]
            time.sleep(0)
            counter[0] = c + 7
        time.sleep(0)
        o = Target()
        w = weakref.ref(o, lambda _: wcalls.append(1))
        out.append(w() is o)
        wrefs.append(w)
        del o, w
        with open(os.devnull, 'w') as fh:
            fh.write('x' * 40)
            fh.flush()
        if time.perf_counter_ns() & 1:
            setattr(Shared, 'c_%d' % t, r + 3)
        else:
            setattr(Shared, 'c_%d' % t, r + 3)
            time.sleep(0)
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
        out.append(hash(str(r * 5) + 'x') == hash(str(r * 5) + 'x'))
        out.append((1 << (r + 5)) % 1000003)
        BIG[(t * 373 + r * 2) % 3000] += 1
        setattr(obj, 'a%d' % t, r * 3)
        out.append(getattr(obj, 'a%d' % t))
        tls.v = getattr(tls, 'v', 0) + 3
        out.append(tls.v)
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
        DQ.append((t, r, 2))
        if len(DQ) > 50:
            try:
                DQ.popleft()
            except IndexError:
                pass
        setattr(Shared, 'c_%d' % t, r + 4)
        if r % 5 == 0:
            gc.collect()
        if time.perf_counter_ns() & 1:
            out.append(sum(x * x for x in range(r % 7 + 2)))
            out.append(list(nested(r % 4)))
        else:
            out.append(sum(x * x for x in range(r % 7 + 2)))
            out.append(list(nested(r % 4)))
            time.sleep(0)
        out.append(list(map(lambda x: x + 5, range(r % 5))))
        out.append(sorted(range(r % 6), key=lambda x: -x))
        tls.v = getattr(tls, 'v', 0) + 4
        out.append(tls.v)
        f = Fin(t)
        if r % 2:
            f.self = f
        del f
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
        setattr(obj, 'a%d' % t, r * 5)
        out.append(getattr(obj, 'a%d' % t))
        D[(t, r, 22)] = 3
        out.append(sum(x * x for x in range(r % 7 + 5)))
        out.append(list(nested(r % 4)))
        with lock:
            counter[0] += 7
        if time.perf_counter_ns() & 1:
            with lock:
                c = counter[0]
                time.sleep(0)
                counter[0] = c + 2
        else:
            with lock:
                c = counter[0]
                time.sleep(0)
                counter[0] = c + 2
            time.sleep(0)
        BIG[(t * 373 + r * 4) % 3000] += 1
        out.append(sum(x * x for x in range(r % 7 + 7)))
        out.append(list(nested(r % 4)))
        if time.perf_counter_ns() & 1:
            with lock:
                Shared.count += 1
        else:
            with lock:
                Shared.count += 1
            time.sleep(0)
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
        import calendar as mod_29
        out.append(mod_29.__name__)
        out.append(list(map(lambda x: x + 5, range(r % 5))))
        out.append(sorted(range(r % 6), key=lambda x: -x))
        if time.perf_counter_ns() & 1:
            tls.v = getattr(tls, 'v', 0) + 7
            out.append(tls.v)
        else:
            tls.v = getattr(tls, 'v', 0) + 7
            out.append(tls.v)
            time.sleep(0)
        with dlock:
            D2[3] = D2.get(3, 0) + 1
        if time.perf_counter_ns() & 1:
            import bisect as mod_33
            out.append(mod_33.__name__)
        else:
            import bisect as mod_33
            out.append(mod_33.__name__)
            time.sleep(0)
        if time.perf_counter_ns() & 1:
            with glock:
                v = next(G, None)
            if v is not None:
                GV.append(v)
        else:
            with glock:
                v = next(G, None)
            if v is not None:
                GV.append(v)
            time.sleep(0)
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
        try:
            with lock:
                counter[0] += 1
                raise KeyError(35)
        except KeyError as e:
            got.append(e.args[0])
        if time.perf_counter_ns() & 1:
            with tm.atomic:
                time.sleep(0)
                obj.count += 3
        else:
            with tm.atomic:
                time.sleep(0)
                obj.count += 3
            time.sleep(0)
        with tm.atomic:
            L.append((t, r, 7))
            L.remove((t, r, 7))
            L.append((t, r, 7))
        with tm.atomic:
            obj.count += 1
        DQ.append((t, r, 2))
        if len(DQ) > 50:
            try:
                DQ.popleft()
            except IndexError:
                pass
        if time.perf_counter_ns() & 1:
            with open(os.devnull, 'w') as fh:
                fh.write('x' * 40)
                fh.flush()
        else:
            with open(os.devnull, 'w') as fh:
                fh.write('x' * 40)
                fh.flush()
            time.sleep(0)
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
            with glock:
                v = next(G, None)
            if v is not None:
                GV.append(v)
        else:
            with glock:
                v = next(G, None)
            if v is not None:
                GV.append(v)
            time.sleep(0)
        D[(t, r, 'tmp', 43)] = 1
        out.append(D.pop((t, r, 'tmp', 43)))
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
print("BIG", sum(BIG), BIG.index(max(BIG)) if max(BIG) else -1, "DQ", len(DQ) >= 0)
for t, r in enumerate(results):
    print("thread", t, r)
for _ in range(3):
    gc.collect()
print("dels", len(dels), sorted(set(dels)), "weakref callbacks", len(wcalls),
      sum(w() is None for w in wrefs))
