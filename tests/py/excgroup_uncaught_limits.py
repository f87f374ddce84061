# An uncaught BaseExceptionGroup past the printed width and depth limits, with a
# SyntaxError and a multi-line message among its members.
import sys
def deep(n):
    e = ValueError("leaf")
    for i in range(n):
        e = ExceptionGroup(f"level {i}", [e, KeyError(i)])
    return e
try:
    compile("x = (", "f.py", "exec")
except SyntaxError as se:
    s = se
wide = ExceptionGroup("wide", [ValueError(i) for i in range(18)] + [s, TypeError("two\nlines")])
g = BaseExceptionGroup("top", [deep(12), wide, KeyboardInterrupt()])
raise g
