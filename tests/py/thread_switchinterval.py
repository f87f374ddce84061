# sys.setswitchinterval / getswitchinterval round-trip and errors; threads
# still interleave correctly with a tiny and with a large interval.
import sys
import threading

print("default", sys.getswitchinterval())
for v in (0.001, 0.005, 0.01, 1.0, 0.002):
    sys.setswitchinterval(v)
    print("set", v, "get", sys.getswitchinterval())
# intervals are kept to the microsecond
for v in (0.0125, 0.0001, 0.000123):
    sys.setswitchinterval(v)
    print("set", v, "close", abs(sys.getswitchinterval() - v) < 1e-6)
for bad in (0, -1, 0.0, -0.5):
    try:
        sys.setswitchinterval(bad)
    except ValueError as e:
        print("ValueError", e)
try:
    sys.setswitchinterval("x")
except TypeError:
    print("TypeError for str")
sys.setswitchinterval(3)
print("int accepted", sys.getswitchinterval())

lock = threading.Lock()


def run(interval):
    sys.setswitchinterval(interval)
    total = [0]
    parts = []

    def work(k):
        s = 0
        for i in range(3000):
            s += i * k
        with lock:
            total[0] += s
            parts.append(k)

    ts = [threading.Thread(target=work, args=(k,)) for k in range(1, 7)]
    for t in ts:
        t.start()
    for t in ts:
        t.join()
    return total[0], sorted(parts)


print("tiny interval", run(1e-6))
print("large interval", run(0.5))
sys.setswitchinterval(0.005)
print("restored", sys.getswitchinterval())
