# Bank transfers under tm.synchronized on the account objects themselves
# (monitors in the object header), lock order by index, 6 threads, while
# the threads allocate (objects move in the nursery while their monitors
# are held). Final balances are exact. CPython has no `tm`: the fallback
# gives each object an RLock.
import os
import sys
import threading

from support.threads import start_join, switch_point
from support.tm_fallback import tm

SCALE = int(os.environ.get("TMPY_THREAD_SCALE", "1"))
N = 4
THREADS = 6
STEPS = 1000 * SCALE
sys.setswitchinterval(1e-5)  # switches inside the critical sections


class Account:
    def __init__(self, i):
        self.i = i
        self.balance = 500
        self.history = []


accounts = [Account(i) for i in range(N)]


def steps(seed):
    x = seed
    for _ in range(STEPS):
        x = (x * 69069 + 1) & 0xFFFFFFFF
        a = (x >> 8) % N
        b = (x >> 16) % N
        if a == b:
            b = (a + 1) % N
        yield a, b, (x >> 24) % 9 + 1


expected = [500] * N
for s in range(THREADS):
    for a, b, amt in steps(s * 7 + 3):
        expected[a] -= amt
        expected[b] += amt


start = threading.Barrier(THREADS)


def teller(seed):
    start.wait()  # all at once, so that they contend
    for a, b, amt in steps(seed):
        src, dst = accounts[a], accounts[b]
        lo, hi = (src, dst) if a < b else (dst, src)
        with tm.synchronized(lo):
            with tm.synchronized(hi):
                with tm.synchronized(src):
                    b = src.balance
                    switch_point()  # a lost update if the monitors do not exclude
                    src.balance = b - amt
                    dst.balance += amt
                    # allocate while holding both monitors
                    src.history.append((b, -amt))
                    dst.history.append((a, amt))
                    if len(src.history) > 8:
                        src.history = src.history[-4:]
                    if len(dst.history) > 8:
                        dst.history = dst.history[-4:]


ts = [threading.Thread(target=teller, args=(s * 7 + 3,)) for s in range(THREADS)]
start_join(ts)
final = [a.balance for a in accounts]
print("total", sum(final), "exact", final == expected)
print("owned afterwards", [tm.is_owned(a) for a in accounts].count(True))


# every account can still be locked by a fresh thread
def probe():
    for a in accounts:
        with tm.synchronized(a):
            a.balance += 0


t = threading.Thread(target=probe)
t.start()
t.join()
print("probe done", not t.is_alive())
