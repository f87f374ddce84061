# sys.setrecursionlimit refuses a limit at or below the current depth with
# RecursionError, as CPython; test_exceptions probes for the lowest limit it
# can set that way, and with the limit accepted its whole run ended.
import sys


def lowest_settable():
    depth = 1
    while True:
        try:
            sys.setrecursionlimit(depth)
        except RecursionError as e:
            assert str(e).startswith(f"cannot set the recursion limit to {depth} at the recursion depth "), e
            depth += 1
        else:
            return depth


def nested(n):
    return nested(n - 1) if n else lowest_settable()


old = sys.getrecursionlimit()
low = nested(0)
sys.setrecursionlimit(old)
deeper = nested(30)
sys.setrecursionlimit(old)
print(deeper - low)
for bad in (0, -5):
    try:
        sys.setrecursionlimit(bad)
    except ValueError as e:
        print("ValueError", e)


def recurse_in_except():
    try:
        1 / 0
    except ZeroDivisionError:
        recurse_in_except()


sys.setrecursionlimit(nested(0) + 10)
try:
    recurse_in_except()
except RecursionError:
    print("RecursionError")
sys.setrecursionlimit(old)
print(sys.getrecursionlimit() == old)
