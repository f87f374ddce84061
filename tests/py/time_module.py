import time
t0 = time.time(); p0 = time.perf_counter(); m0 = time.monotonic()
s = 0
for i in range(10000):
    s += i
time.sleep(0.01)
print(s, time.time() >= t0, time.perf_counter() - p0 >= 0.01, time.monotonic() >= m0)
print(type(time.time()).__name__, type(time.time_ns()).__name__, time.perf_counter_ns() > 0)
try:
    time.sleep(-1)
except ValueError as e:
    print(e)
