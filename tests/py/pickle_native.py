# The C _pickle under pickle.py: every protocol, the bytes it writes
# (compared with python3's C pickler through the printed output),
# recursion, memo sharing, the reduce protocol's forms, subclass overrides,
# files, errors. (slice, Ellipsis and NotImplemented are left out: tmpy's
# types do not reduce yet, under the pure-Python pickler either.)
import copyreg
import io
import pickle
import pickletools

import _pickle

print(pickle.Pickler is _pickle.Pickler, pickle.Unpickler is _pickle.Unpickler, pickle.dumps is _pickle.dumps)
print(pickle.PicklingError.__module__, issubclass(pickle.UnpicklingError, pickle.PickleError))

ATOMS = [None, True, False, 0, 1, -1, 255, 256, 65535, 65536, -2**31, 2**31 - 1, 2**31, 2**63, -2**63 - 1,
         10**40, -10**40, 0.0, -0.5, 1e300, float("inf"), "", "abc", "h\xe9llo \u20ac \U0001f600",
         "back\\slash\nnew\rline\x00\x1a", "\ud800", b"", b"\x00\xff" * 3, bytearray(b"ab"), (), (1,), (1, 2),
         (1, 2, 3), (1, 2, 3, 4), [], {}, set(), frozenset(), {1, 2, 3}, frozenset({"x"}), 3 + 4j, range(3),
         type(None), int, len, pickle.dumps]
for proto in range(pickle.HIGHEST_PROTOCOL + 1):
    for x in ATOMS:
        try:
            s = pickle.dumps(x, proto)
        except Exception as e:
            print(proto, repr(x), "dump error", type(e).__name__)
            continue
        y = pickle.loads(s)
        ok = y == x or (x != x and y != y) or (type(x) is type and y is x)
        print(proto, repr(x)[:40], ok, s)

# shared and recursive structures keep their identity
for proto in range(6):
    shared = [1, 2]
    obj = [shared, shared, {"k": shared}]
    back = pickle.loads(pickle.dumps(obj, proto))
    print(proto, back[0] is back[1] is back[2]["k"])
    rec = []
    rec.append(rec)
    back = pickle.loads(pickle.dumps(rec, proto))
    print(proto, back[0] is back)
    d = {}
    d["self"] = d
    back = pickle.loads(pickle.dumps(d, proto))
    print(proto, back["self"] is back)
    t = ([],)
    t[0].append(t)
    back = pickle.loads(pickle.dumps(t, proto))
    print(proto, back[0][0] is back)
    s = "shared string"
    back = pickle.loads(pickle.dumps([s, s], proto))
    print(proto, back[0] is back[1])


# the reduce protocol's forms
class WithState:
    def __init__(self, a):
        self.a = a
        self.me = self

    def __eq__(self, other):
        return type(other) is type(self) and other.a == self.a


class GetSetState:
    def __init__(self, v):
        self.v = v

    def __getstate__(self):
        return {"v": self.v * 2}

    def __setstate__(self, st):
        self.v = st["v"] + 1


class Slots:
    __slots__ = ("x", "y")

    def __init__(self):
        self.x = 1
        self.y = [2]


class NewArgs(int):
    def __new__(cls, v, extra):
        o = int.__new__(cls, v)
        o.extra = extra
        return o

    def __getnewargs__(self):
        return (int(self), self.extra)


class NewArgsEx:
    def __new__(cls, *args, **kw):
        o = object.__new__(cls)
        o.args, o.kw = args, kw
        return o

    def __getnewargs_ex__(self):
        return self.args, self.kw


class ReduceEx:
    def __init__(self, n):
        self.n = n

    def __reduce_ex__(self, proto):
        return (ReduceEx, (self.n + proto,), None, None, None)


class ReduceItems:
    def __init__(self):
        self.items, self.d = [], {}

    def append(self, x):
        self.items.append(x)

    def extend(self, xs):
        self.items.extend(xs)

    def __setitem__(self, k, v):
        self.d[k] = v

    def __reduce__(self):
        return (ReduceItems, (), None, iter(range(2500)), iter({i: -i for i in range(1500)}.items()))


def set_state(obj, state):
    obj.setter_ran = state


class WithSetter:
    def __reduce__(self):
        return (WithSetter, (), "state!", None, None, set_state)


class ListSub(list):
    pass


class DictSub(dict):
    pass


for proto in range(6):
    w = pickle.loads(pickle.dumps(WithState([1]), proto))
    print(proto, w.a, w.me is w)
    print(proto, pickle.loads(pickle.dumps(GetSetState(5), proto)).v)
    sl = pickle.loads(pickle.dumps(Slots(), proto)) if proto >= 2 else None
    print(proto, sl and (sl.x, sl.y))
    na = pickle.loads(pickle.dumps(NewArgs(7, "e"), proto))
    print(proto, na, type(na).__name__, na.extra)
    if proto >= 2:
        ne = pickle.loads(pickle.dumps(NewArgsEx(1, 2, k=3), proto))
        print(proto, ne.args, ne.kw)
    print(proto, pickle.loads(pickle.dumps(ReduceEx(10), proto)).n)
    ri = pickle.loads(pickle.dumps(ReduceItems(), proto))
    print(proto, len(ri.items), sum(ri.items), len(ri.d), ri.d[1499])
    print(proto, pickle.loads(pickle.dumps(WithSetter(), proto)).setter_ran)
    ls = ListSub([1, 2])
    ls.attr = "a"
    b = pickle.loads(pickle.dumps(ls, proto))
    print(proto, type(b).__name__, b, b.attr)
    ds = DictSub(a=1)
    b = pickle.loads(pickle.dumps(ds, proto))
    print(proto, type(b).__name__, b)
    big = list(range(2500))
    print(proto, pickle.loads(pickle.dumps(big, proto)) == big)
    bigd = {i: str(i) for i in range(2100)}
    print(proto, pickle.loads(pickle.dumps(bigd, proto)) == bigd)
    bigs = set(range(2100))
    print(proto, pickle.loads(pickle.dumps(bigs, proto)) == bigs)


# subclass overrides
class PersPickler(pickle.Pickler):
    def persistent_id(self, obj):
        if isinstance(obj, str) and obj.startswith("ext:"):
            return obj[4:]
        return None


class PersUnpickler(pickle.Unpickler):
    def persistent_load(self, pid):
        return "loaded " + pid


class Restricted(pickle.Unpickler):
    def find_class(self, module, name):
        if name == "WithState":
            raise pickle.UnpicklingError("forbidden " + name)
        return super().find_class(module, name)


class Override(pickle.Pickler):
    def reducer_override(self, obj):
        if obj is ReduceEx:
            return (str, ("was a class",))
        return NotImplemented


for proto in range(6):
    f = io.BytesIO()
    PersPickler(f, proto).dump(["ext:one", "plain", ["ext:two"]])
    f.seek(0)
    print(proto, PersUnpickler(f).load())
    try:
        Restricted(io.BytesIO(pickle.dumps(WithState(1), proto))).load()
    except pickle.UnpicklingError as e:
        print(proto, "refused:", e)
    f = io.BytesIO()
    Override(f, proto).dump([ReduceEx, 1])
    print(proto, pickle.loads(f.getvalue()))
    f = io.BytesIO()
    p = pickle.Pickler(f, proto)
    p.dispatch_table = copyreg.dispatch_table.copy()
    p.dispatch_table[WithState] = lambda o: (str, ("via dispatch_table",))
    p.dump(WithState(2))
    print(proto, pickle.loads(f.getvalue()))

# memo across dump() calls, clear_memo, the memo proxies
f = io.BytesIO()
p = pickle.Pickler(f, 2)
shared = ["x"]
p.dump(shared)
p.dump(shared)
p.clear_memo()
p.dump(shared)
f.seek(0)
u = pickle.Unpickler(f)
a, b, c = u.load(), u.load(), u.load()
print(a is b, a is c, a == c, sorted(u.memo.copy()))
print(type(p.memo).__name__, len(p.memo.copy()), type(u.memo).__name__)
p2 = pickle.Pickler(io.BytesIO(), 2)
p2.memo = p.memo
print(len(p2.memo.copy()))

# several pickles in one file, files whose reads come in pieces
f = io.BytesIO()
for proto in range(6):
    pickle.dump({"proto": proto, "data": list(range(proto * 3))}, f, proto)
f.seek(0)
for proto in range(6):
    print(pickle.load(f))
print(f.read())


class Trickle(io.RawIOBase):
    def __init__(self, data):
        self.data = data

    def readinto(self, b):
        n = min(len(b), 3, len(self.data))
        b[:n] = self.data[:n]
        self.data = self.data[n:]
        return n

    def readable(self):
        return True


for proto in range(6):
    blob = pickle.dumps([list(range(50)), "text" * 20, {"a": (1, 2.5)}], proto)
    print(proto, pickle.load(io.BufferedReader(Trickle(blob))) == pickle.loads(blob))

# big framed payloads (protocol 4's frames and large bytes outside them)
for proto in (4, 5):
    big = [b"x" * 70000, [1] * 10, "y" * 70000, {"k": b"z" * 100}]
    s = pickle.dumps(big, proto)
    print(proto, pickle.loads(s) == big, len(s), s.count(b"\x95"))
    f = io.BytesIO()
    pickle.dump(big, f, proto)
    print(proto, f.getvalue() == s)
    ops = [op.name for op, arg, pos in pickletools.genops(s)]
    print(proto, ops[:6])

# errors
for bad in [b"", b"\x80\x02", b"N", b"(.", b"0", b"]q\x00h\x01.", b"\x80\x09N.", b"cbuiltins\nnope\n.",
            b"I12x\n.", b"zz", b"\x80\x04\x95\x05\x00\x00\x00\x00\x00\x00\x00N.", b"S'unquoted\n."]:
    try:
        print(repr(bad), pickle.loads(bad))
    except Exception as e:
        print(repr(bad), type(e).__name__)
for bad in [lambda: 1, (x for x in ()), open]:
    try:
        pickle.dumps(bad)
    except Exception as e:
        print(type(e).__name__)
try:
    pickle.dumps(1, protocol=6)
except ValueError as e:
    print(e)
try:
    pickle.Pickler(object())
except TypeError as e:
    print(e)
try:
    pickle.loads("str")
except TypeError as e:
    print(e)


class NoInit(pickle.Pickler):
    def __init__(self):
        pass


try:
    NoInit().dump(1)
except pickle.PicklingError as e:
    print(e)
p = pickle.Pickler(io.BytesIO())
p.fast = True
print(p.fast, p.bin)
deep = []
for i in range(60):
    deep = [deep]
p.dump(deep)
cyc = []
cyc.append(cyc)
for i in range(60):
    cyc = [cyc]
try:
    p.dump(cyc)
except ValueError as e:
    print("fast mode:", str(e).split(" including")[0])
print(pickle.loads(pickle.dumps([1, "a"] * 3, 1), encoding="bytes"))
print(pickle.loads(b"(S'abc'\np0\nS'abc'\np1\nt.", encoding="bytes"))
print(pickle.loads(b"(S'abc'\np0\nS'\\xe9'\np1\nt.", encoding="latin1"))
print(pickle.loads(b"c__builtin__\nset\n((lp0\nI1\natR.", fix_imports=True))
