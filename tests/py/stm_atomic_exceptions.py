# Exceptions and print() inside `with tm.atomic:`: an exception leaves the
# block with its effects kept (as with a lock), the block can be re-entered,
# and output printed inside a block appears once, whole.
import threading

from support.threads import start_join
from support.tm_fallback import tm

state = {"n": 0}


def step(i):
    with tm.atomic:
        state["n"] += 1
        if i % 3 == 0:
            raise ValueError(i)
        state["n"] += 10


errors = 0
for i in range(30):
    try:
        step(i)
    except ValueError:
        errors += 1
print("n", state["n"], "errors", errors)

lines = []
lock = threading.Lock()


def printer(k):
    for i in range(50):
        with tm.atomic:
            line = "thread %d line %d" % (k, i)
            with lock:
                lines.append(line)


start_join([threading.Thread(target=printer, args=(k,)) for k in range(4)])
print("lines", len(lines), len(set(lines)))
with tm.atomic:
    print("printed inside an atomic block")
    try:
        with tm.atomic:
            1 / 0
    except ZeroDivisionError as e:
        print("caught", type(e).__name__)
    print("still inside")
print("after")
