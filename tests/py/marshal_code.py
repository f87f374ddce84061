# marshal of code objects: what a round-tripped code object does (never its
# bytes: tmpy's format is its own), its attributes, tracebacks, errors.
import io
import marshal
import sys
import traceback

SRC = '''\
"""the module doc"""
import sys
X = 10

def outer(a, b=2, /, c=3, *args, d, e=5, **kw):
    """outer doc"""
    total = a + b + c + d + e + sum(args) + sum(kw.values())
    def inner(y):
        nonlocal total
        total += y
        return total
    return inner

def gen(n):
    for i in range(n):
        got = yield i * X
        if got:
            yield ("got", got)

async def coro(v):
    return v + 1

class Base:
    def hello(self):
        return "base"

class Kid(Base):
    """kid doc"""
    attr = [i * i for i in range(4)]
    def hello(self):
        return "kid+" + super().hello()

def cells(p, q):
    def a():
        return p + q
    return a

def matcher(v):
    match v:
        case [1, *rest]:
            return ("list", rest)
        case {"k": val}:
            return ("dict", val)
        case Kid():
            return "kid"
        case _:
            return None

def handler(x):
    try:
        return 1 / x
    except ZeroDivisionError as e:
        return type(e).__name__
    finally:
        pass

def fail(n):
    lst = [1, 2]
    return lst[n] + \\
        n

lam = lambda *a, **k: (a, sorted(k))
consts = (1.5, -2j, 2**100, b"by", "s\\u00e9", None, ..., frozenset({1}), (1, (2, 3)))

inc = outer(1, d=4, z=7)
print("outer", inc(1), inc(10), outer.__doc__, outer.__defaults__, outer.__kwdefaults__)
g = gen(3)
print("gen", next(g), g.send("a"), next(g), list(g))
c = coro(41)
try:
    c.send(None)
except StopIteration as si:
    print("coro", si.value)
k = Kid()
print("class", k.hello(), Kid.attr, Kid.__doc__, Kid.__qualname__, Kid.hello.__qualname__)
print("cells", cells(2, 3)())
print("match", matcher([1, 2, 3]), matcher({"k": 9}), matcher(k), matcher(0))
print("handler", handler(0), handler(4))
print("lam", lam(1, 2, z=1, a=2))
print("consts", consts)
print("doc", __doc__)
'''


def run(code, label):
    ns = {"__name__": "m_" + label}
    exec(code, ns)
    try:
        ns["fail"](5)
    except IndexError:
        tb = traceback.extract_tb(sys.exc_info()[2])
        print(label, "traceback", [(f.name, f.lineno) for f in tb][1:], tb[-1].line)
    return ns


orig = compile(SRC, "demo.py", "exec")
ns1 = run(orig, "orig")
for version in range(5):
    data = marshal.dumps(orig, version)
    back = marshal.loads(data)
    ns2 = run(back, "v%d" % version)

back = marshal.loads(marshal.dumps(orig))
print(type(back).__name__, back.co_filename, back.co_name, back.co_firstlineno)
f1, f2 = ns1["outer"].__code__, ns2["outer"].__code__
for attr in ("co_name", "co_qualname", "co_filename", "co_argcount", "co_posonlyargcount",
             "co_kwonlyargcount", "co_varnames", "co_cellvars", "co_freevars", "co_names", "co_flags",
             "co_firstlineno", "co_nlocals", "co_stacksize"):
    print(attr, getattr(f1, attr) == getattr(f2, attr), getattr(f1, attr) if attr != "co_stacksize" else "")
inner = [c for c in f2.co_consts if type(c) is type(f2)][0]
print("inner", inner.co_name, inner.co_qualname, inner.co_freevars, inner.co_firstlineno)
print("positions", list(f1.co_positions()) == list(f2.co_positions()))
print("docstring", marshal.loads(marshal.dumps(f1)).co_consts[0])

# a code object shared twice is one object after loading (version >= 3)
pair = marshal.loads(marshal.dumps((f1, f1)))
print("shared", pair[0] is pair[1], pair[0].co_name)
pair = marshal.loads(marshal.dumps((f1, f1), 2))
print("copies", pair[0] is pair[1], pair[1].co_name)

# an eval and a single-mode code object
print("eval", eval(marshal.loads(marshal.dumps(compile("6 * 7", "e", "eval")))))
exec(marshal.loads(marshal.dumps(compile("print('single', 1 + 1)", "s", "single"))))

# dump/load through a file
buf = io.BytesIO()
marshal.dump(compile("RESULT = [n for n in range(3)]", "f.py", "exec"), buf)
buf.seek(0)
ns = {}
exec(marshal.load(buf), ns)
print("file", ns["RESULT"])

# a module's code through a .pyc-like header, as importlib writes it
import importlib._bootstrap_external as be
pyc = be._code_to_timestamp_pyc(orig, 123, 456)
print("pyc", pyc[:4] == be.MAGIC_NUMBER, be._classify_pyc(pyc, "x", {}) == 0)
exec(marshal.loads(pyc[16:]), {"__name__": "pyc"})

# truncated data: EOFError at every cut, never a crash
data = marshal.dumps(orig)
kinds = set()
for cut in range(0, len(data), max(1, len(data) // 200)):
    try:
        marshal.loads(data[:cut])
        kinds.add("loaded")
    except (EOFError, ValueError) as e:
        kinds.add(type(e).__name__)
print("truncated", sorted(kinds))
# corrupted bytes: an error or a code object, never a crash (not run)
for i in range(0, len(data), 7):
    bad = bytearray(data)
    bad[i] ^= 0x5A
    try:
        marshal.loads(bytes(bad))
    except Exception:
        pass
print("corrupted done")
for bad in (lambda: marshal.dumps(run), lambda: marshal.dumps(ns1["gen"](1))):
    try:
        bad()
    except ValueError as e:
        print("ValueError", e)
