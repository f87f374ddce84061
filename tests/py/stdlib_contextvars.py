# contextvars (CPython's contextvars.py over tmpy's C _contextvars).
import contextvars
from contextvars import ContextVar, copy_context, Context, Token
v = ContextVar("v", default=1)
w = ContextVar("w")
print(v.get(), v.name, w.get(5))
try:
    w.get()
except LookupError as e:
    print("LookupError", type(e).__name__)
t = v.set(10)
print(v.get(), t.var is v, t.old_value is Token.MISSING, repr(Token.MISSING))
ctx = copy_context()
v.set(20)
print(ctx[v], v.get(), v in ctx, len(ctx), list(ctx.keys()) == [v])
def inside(x):
    v.set(x)
    return v.get()
print(ctx.run(inside, 99), v.get(), ctx[v])
v.reset(t)
print(v.get())
try:
    v.reset(t)
except RuntimeError as e:
    print("RuntimeError", "used" in str(e))
c2 = Context()
print(len(c2), c2.get(v, "none"), ContextVar[int])
try:
    ctx.run(lambda: ctx.run(print))
except RuntimeError as e:
    print("RuntimeError", "already entered" in str(e))
print(type(ctx).__module__, type(v).__qualname__, repr(v).startswith("<ContextVar name='v' default=1 at 0x"))
print(repr(t).startswith("<Token used var=<ContextVar name='v'"), t.old_value)

import threading
seen = []


def worker():
    seen.append(v.get())
    v.set("thread")
    seen.append(v.get())


v.set("main")
th = threading.Thread(target=worker)
th.start()
th.join()
print(seen, v.get())
