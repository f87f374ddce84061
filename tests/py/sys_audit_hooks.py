# PEP 578 from Python code: sys.audit reaches the hooks added with
# sys.addaudithook, in order; an Exception from an existing hook vetoes a
# new one silently; a BaseException that is not one, and errors from other
# events, propagate. (Only events named here are looked at:
# CPython raises many of its own.)
import sys

sys.audit("nobody.listens", 1, 2)
seen = []


def first(event, args):
    if event.startswith("demo."):
        seen.append(("first", event, args))


def second(event, args):
    if event.startswith("demo."):
        seen.append(("second", event, args))
    if event == "demo.fail":
        raise ValueError("from the hook")


class Stop(BaseException):
    pass


def veto(event, args):
    if event == "sys.addaudithook" and veto_next:
        raise veto_next("no more hooks")


veto_next = None
sys.addaudithook(first)
sys.addaudithook(second)
sys.addaudithook(veto)
sys.audit("demo.event", "a", [1])
sys.audit("demo.noargs")
print(seen)
try:
    sys.audit("demo.fail", 3)
except ValueError as e:
    print("ValueError", e)
for veto_next in (RuntimeError, ValueError):
    print(sys.addaudithook(lambda e, a: seen.append(("late", e))))
veto_next = Stop
try:
    sys.addaudithook(lambda e, a: seen.append(("late", e)))
except Stop as e:
    print("Stop", e)
seen.clear()
sys.audit("demo.after")
print(seen)
for bad in [(), (1,)]:
    try:
        sys.audit(*bad)
    except TypeError as e:
        print("TypeError", e)
import tempfile, os
d = tempfile.mkdtemp()
print(os.path.isdir(d))
os.rmdir(d)
