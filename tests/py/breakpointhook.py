# breakpoint() calls sys.breakpointhook; the default hook follows $PYTHONBREAKPOINT.
import os
import sys
import warnings

print(sys.__breakpointhook__ is sys.breakpointhook)
seen = []
sys.breakpointhook = lambda *a, **k: seen.append((a, k)) or "hooked"
print(breakpoint(1, 2, x=3), seen)
sys.breakpointhook = sys.__breakpointhook__

os.environ["PYTHONBREAKPOINT"] = "0"
print(breakpoint())
os.environ["PYTHONBREAKPOINT"] = "builtins.len"
print(breakpoint([1, 2, 3]))
os.environ["PYTHONBREAKPOINT"] = "abs"   # no dot: a built-in
print(breakpoint(-4))
for bad in (".", ".foo", "foo.", "nosuchbuiltin", "nosuchmodule.nosuchcallable", "os.nosuchattr"):
    os.environ["PYTHONBREAKPOINT"] = bad
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        r = breakpoint()
    print(repr(bad), r, [(x.category.__name__, str(x.message)) for x in w])
try:
    os.environ["PYTHONBREAKPOINT"] = "builtins.len"
    breakpoint()
except TypeError as e:
    print("TypeError", e)
del os.environ["PYTHONBREAKPOINT"]
del sys.breakpointhook
try:
    breakpoint()
except RuntimeError as e:
    print("RuntimeError", e)
