# Stress with invariants. Bank transfers between accounts under
# per-account locks taken in a fixed order (lower index first), 8
# threads; an auditor takes every lock and checks the total. Transfers
# are unconditional, so the final balances do not depend on scheduling.
# Then a conditional variant (no overdraft), and list appends from many
# threads without a lock (each append is atomic). Longer runs:
# TMPY_THREAD_SCALE=N.
import os
import sys
import threading

from support.threads import switch_point

SCALE = int(os.environ.get("TMPY_THREAD_SCALE", "1"))
N_ACCOUNTS = 10
N_THREADS = 8
N_TRANSFERS = 1500 * SCALE
START = 1000
sys.setswitchinterval(1e-5)  # switches inside the critical sections


class Account:
    def __init__(self, i):
        self.id = i
        self.balance = START
        self.lock = threading.Lock()


def lcg(seed):
    x = seed
    while True:
        x = (x * 1103515245 + 12345) & 0x7FFFFFFF
        yield x


def plan(seed):
    g = lcg(seed)
    out = []
    for _ in range(N_TRANSFERS):
        a = next(g) % N_ACCOUNTS
        b = next(g) % N_ACCOUNTS
        if a == b:
            b = (b + 1) % N_ACCOUNTS
        out.append((a, b, next(g) % 50 + 1))
    return out


plans = [plan(s + 1) for s in range(N_THREADS)]
expected = [START] * N_ACCOUNTS
for p in plans:
    for a, b, amt in p:
        expected[a] -= amt
        expected[b] += amt

accounts = [Account(i) for i in range(N_ACCOUNTS)]
TOTAL = START * N_ACCOUNTS
audit_failures = []
stop = threading.Event()


def transfer(src, dst, amt):
    first, second = (src, dst) if src.id < dst.id else (dst, src)
    with first.lock:
        with second.lock:
            s = src.balance
            switch_point()  # a lost update if the locks do not exclude
            src.balance = s - amt
            dst.balance += amt


def teller(p):
    for a, b, amt in p:
        transfer(accounts[a], accounts[b], amt)


def audit_once():
    for acc in accounts:
        acc.lock.acquire()
    try:
        return sum(acc.balance for acc in accounts)
    finally:
        for acc in reversed(accounts):
            acc.lock.release()


def auditor():
    while not stop.is_set():
        s = audit_once()
        if s != TOTAL:
            audit_failures.append(s)
        stop.wait(0.001)


aud = threading.Thread(target=auditor)
aud.start()
ts = [threading.Thread(target=teller, args=(p,)) for p in plans]
for t in ts:
    t.start()
for t in ts:
    t.join()
stop.set()
aud.join()
final = [acc.balance for acc in accounts]
print("total conserved", sum(final) == TOTAL, sum(final))
print("balances as computed", final == expected)
print("audit failures", audit_failures)
print("locks free", [acc.lock.locked() for acc in accounts].count(True))

# conditional transfers with RLocks (no overdraft): balances never negative
for acc in accounts:
    acc.balance = START
    acc.lock = threading.RLock()
refused = [0]
count_lock = threading.Lock()


def careful(p):
    r = 0
    for a, b, amt in p:
        src, dst = accounts[a], accounts[b]
        first, second = (src, dst) if src.id < dst.id else (dst, src)
        with first.lock, second.lock:
            with src.lock:  # re-entrant
                if src.balance >= amt * 20:
                    switch_point()  # an overdraft if the locks do not exclude
                    src.balance -= amt * 20
                    dst.balance += amt * 20
                else:
                    r += 1
    with count_lock:
        refused[0] += r


ts = [threading.Thread(target=careful, args=(p,)) for p in plans[:6]]
for t in ts:
    t.start()
for t in ts:
    t.join()
final = [acc.balance for acc in accounts]
print("conditional total", sum(final), all(b >= 0 for b in final), refused[0] <= 6 * N_TRANSFERS)

# list appends from many threads lose nothing
shared = []
PER = 4000 * SCALE


def appender(k):
    base = k * PER
    for i in range(PER):
        shared.append(base + i)


ts = [threading.Thread(target=appender, args=(k,)) for k in range(N_THREADS)]
for t in ts:
    t.start()
for t in ts:
    t.join()
print("appends", len(shared), len(shared) == N_THREADS * PER, sorted(shared) == list(range(N_THREADS * PER)))
# each thread's own items stay in its order
ok = True
for k in range(N_THREADS):
    mine = [x for x in shared if k * PER <= x < (k + 1) * PER]
    if mine != list(range(k * PER, (k + 1) * PER)):
        ok = False
print("per-thread order", ok)

# dict writes to distinct keys from many threads lose nothing
d = {}


def writer(k):
    for i in range(1000):
        d[(k, i)] = k * i


ts = [threading.Thread(target=writer, args=(k,)) for k in range(N_THREADS)]
for t in ts:
    t.start()
for t in ts:
    t.join()
print("dict", len(d), sum(d.values()))
