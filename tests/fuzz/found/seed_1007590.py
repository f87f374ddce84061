# fuzz_threads seed 1007590
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


G = numbers(289)
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

QN = 29
RELAY = 3

def worker_0(t):
    out = []
    buf = io.StringIO()
    got = []
    for r in range(ROUNDS):
        out.append(sum(x * x for x in range(r % 7 + 6)))
        out.append(list(nested(r % 4)))
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
    barrier.wait(30)
    out.append(('after barrier', len(L) >= 0))
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
        with lock:
            Shared.c_tmp = 3
            v = Sub().c_tmp
            del Shared.c_tmp
            out.append((v, hasattr(Sub(), 'c_tmp')))
        with tm.atomic:
            with tm.atomic:
                obj.count += 3
            bank.a += 1
            bank.b -= 1
    barrier.wait(30)
    out.append(('after barrier', len(L) >= 0))
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
        BIG[(t * 373 + r * 3) % 3000] += 1
        if time.perf_counter_ns() & 1:
            with open(os.devnull, 'w') as fh:
                fh.write('x' * 70)
                fh.flush()
        else:
            with open(os.devnull, 'w') as fh:
                fh.write('x' * 70)
                fh.flush()
            time.sleep(0)
        try:
            {}[('missing', 8)]
        except KeyError as e:
            out.append(len(e.args) + 6)
        finally:
            counter[0] += 0
        out.append(list(map(lambda x: x + 1, range(r % 5))))
        out.append(sorted(range(r % 6), key=lambda x: -x))
    barrier.wait(30)
    out.append(('after barrier', len(L) >= 0))
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
        print(t, r, 6, file=buf)
        if time.perf_counter_ns() & 1:
            L.append((t, r, 4))
        else:
            L.append((t, r, 4))
            time.sleep(0)
        import string as mod_12
        out.append(mod_12.__name__)
        if time.perf_counter_ns() & 1:
            import calendar as mod_13
            out.append(mod_13.__name__)
        else:
            import calendar as mod_13
            out.append(mod_13.__name__)
            time.sleep(0)
    barrier.wait(30)
    out.append(('after barrier', len(L) >= 0))
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
        out.append(hash(str(r * 1) + 'x') == hash(str(r * 1) + 'x'))
        out.append((1 << (r + 1)) % 1000003)
        with lock:
            Shared.c_tmp = 3
            v = Sub().c_tmp
            del Shared.c_tmp
            out.append((v, hasattr(Sub(), 'c_tmp')))
        time.sleep(0)
        print(t, r, 4, file=buf)
        with open(os.devnull, 'w') as fh:
            fh.write('x' * 60)
            fh.flush()
        if time.perf_counter_ns() & 1:
            with lock:
                Shared.c_tmp = 1
                v = Sub().c_tmp
                del Shared.c_tmp
                out.append((v, hasattr(Sub(), 'c_tmp')))
        else:
            with lock:
                Shared.c_tmp = 1
                v = Sub().c_tmp
                del Shared.c_tmp
                out.append((v, hasattr(Sub(), 'c_tmp')))
            time.sleep(0)
        for _ in range(40):
            Fin(t)
    barrier.wait(30)
    out.append(('after barrier', len(L) >= 0))
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
        if time.perf_counter_ns() & 1:
            with lock:
                Shared.c_tmp = 3
                v = Sub().c_tmp
                del Shared.c_tmp
                out.append((v, hasattr(Sub(), 'c_tmp')))
        else:
            with lock:
                Shared.c_tmp = 3
                v = Sub().c_tmp
                del Shared.c_tmp
                out.append((v, hasattr(Sub(), 'c_tmp')))
            time.sleep(0)
        f = Fin(t)
        if r % 2:
            f.self = f
        del f
    barrier.wait(30)
    out.append(('after barrier', len(L) >= 0))
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
            try:
                try:
                    raise ValueError(2)
                except ValueError as e:
                    raise FuzzError('wrapped') from e
            except FuzzError as e:
                out.append((str(e), type(e.__cause__).__name__))
        else:
            try:
                try:
                    raise ValueError(2)
                except ValueError as e:
                    raise FuzzError('wrapped') from e
            except FuzzError as e:
                out.append((str(e), type(e.__cause__).__name__))
            time.sleep(0)
        L.append((t, r, 4))
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
        D[(t, r, 'tmp', 27)] = 1
        out.append(D.pop((t, r, 'tmp', 27)))
        try:
            with lock:
                counter[0] += 4
                raise KeyError(28)
        except KeyError as e:
            got.append(e.args[0])
        f = Fin(t)
        if r % 2:
            f.self = f
        del f
    barrier.wait(30)
    out.append(('after barrier', len(L) >= 0))
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
        with lock:
            counter[0] += 8
        o = Target()
        w = weakref.ref(o, lambda _: wcalls.append(1))
        out.append(w() is o)
        wrefs.append(w)
        del o, w
        if time.perf_counter_ns() & 1:
            if r % 5 == 0:
                gc.collect()
        else:
            if r % 5 == 0:
                gc.collect()
            time.sleep(0)
        D[(t, r, 33)] = 7
        S.add((t, r % 3))
        S.discard((t, -1))
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
        setattr(obj, 'a%d' % t, r * 5)
        out.append(getattr(obj, 'a%d' % t))
    barrier.wait(30)
    out.append(('after barrier', len(L) >= 0))
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
