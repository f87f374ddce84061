# sys setters that keep their value in C (issue 21, 3): the value must be
# one that committed code set. The branch that calls the setter is chosen
# by the clock, so the retry of an aborted transaction (an injected abort
# at a commit, a barrier, an allocation) may skip the call that the aborted
# run made; before the fix the limit kept the aborted run's value. The
# value committed code set is kept in the heap (`want`), which an abort
# restores with the rest.
import os
import sys
import time

SCALE = int(os.environ.get("TMPY_THREAD_SCALE", "1"))
ROUNDS = 3000 * SCALE

setters = [
    (sys.setrecursionlimit, sys.getrecursionlimit, lambda k: 2000 + k),
    (sys.setswitchinterval, sys.getswitchinterval, lambda k: 0.001 * (k + 1)),
    (sys.set_int_max_str_digits, sys.get_int_max_str_digits, lambda k: 5000 + k),
]
saved = [get() for _, get, _ in setters]
want = [get() for _, get, _ in setters]
wrong = [0, 0, 0]
calls = 0
for i in range(ROUNDS):
    for _ in range(4):   # yield points: a transaction that may abort starts here
        pass
    j = i % 3
    setter, getter, value = setters[j]
    if getter() != want[j]:
        wrong[j] += 1
        want[j] = getter()
    if time.perf_counter_ns() // 1000 % 2:
        v = value(i % 50)
        setter(v)
        want[j] = getter()   # the switch interval is kept in whole microseconds
        calls += 1
        junk = [i] * 3   # allocations and stores: places an abort is injected
for (setter, _, _), v in zip(setters, saved):
    setter(v)
print("setters called:", calls > 0)
print("values no committed code set:", wrong)
