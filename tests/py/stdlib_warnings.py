# CPython's warnings.py over tmpy's C _warnings: filters, registries,
# catch_warnings, warn_explicit, stacklevel, errors.
import sys
import warnings
import _warnings

print(warnings.warn is _warnings.warn, warnings.filters is _warnings.filters)
print([(a, c.__name__, m) for a, _, c, m, _ in warnings.filters])


def caller():
    warnings.warn("from caller", UserWarning, stacklevel=2)


def show(w):
    for m in w:
        print(m.category.__name__, str(m.message), m.filename.rsplit("/", 1)[-1], m.lineno)


with warnings.catch_warnings(record=True) as w:
    warnings.simplefilter("always")
    warnings.warn("plain")
    warnings.warn("dep", DeprecationWarning)
    warnings.warn(RuntimeWarning("instance"))
    caller()
    warnings.warn("deep", stacklevel=50)
show(w)

with warnings.catch_warnings(record=True) as w:
    warnings.simplefilter("default")
    for i in range(3):
        warnings.warn("repeated")   # same line: shown once
    warnings.warn("repeated")       # another line: shown again
show(w)

with warnings.catch_warnings(record=True) as w:
    warnings.simplefilter("once")
    for i in range(2):
        warnings.warn("only once")
    warnings.warn("only once")
show(w)

with warnings.catch_warnings(record=True) as w:
    warnings.simplefilter("module")
    warnings.warn("per module")
    warnings.warn("per module")
show(w)

with warnings.catch_warnings(record=True) as w:
    warnings.simplefilter("ignore")
    warnings.warn("hidden")
    warnings.simplefilter("always", UserWarning)
    warnings.warn("shown")
    warnings.warn("still hidden", DeprecationWarning)
show(w)

with warnings.catch_warnings():
    warnings.simplefilter("error")
    try:
        warnings.warn("boom", RuntimeWarning)
    except RuntimeWarning as e:
        print("raised", type(e).__name__, e)

with warnings.catch_warnings(record=True) as w:
    warnings.simplefilter("always")
    reg = {}
    warnings.warn_explicit("explicit", SyntaxWarning, "somefile.py", 42, registry=reg)
    warnings.warn_explicit("explicit", SyntaxWarning, "somefile.py", 42, module="m", registry=reg)
    print(sorted(k for k in reg if k != "version"))
show(w)

for bad in (int, "x", object):
    try:
        warnings.warn("bad", bad)
    except TypeError as e:
        print("TypeError", e)

print(warnings.formatwarning("msg", UserWarning, "nofile.py", 7), end="")


class Out:
    def __init__(self):
        self.parts = []

    def write(self, s):
        self.parts.append(s)


out = Out()
warnings.showwarning("shown", UserWarning, "nofile.py", 3, file=out)
print(repr("".join(out.parts)))

old = sys.stderr
sys.stderr = out
warnings.warn("to stderr")
sys.stderr = old
print(repr("".join(out.parts[1:]).split(": ", 1)[1].splitlines()[0]))
warnings.warn("the last line of stderr", stacklevel=10)
