"""Random calls of built-in functions and methods, run by tmpy itself.

Usage: tmpy fuzz_builtins.py SEED CALLS [VERBOSE]

Each call picks a callable (a builtin function, a type, or a method of a
value from the pool, found with dir()) and 0-3 arguments from the pool, and
runs it inside try/except: any Python exception is fine. The pool holds
values of every built-in type, strings with lone surrogates and bytes that
are not UTF-8, and hostile objects whose __eq__, __hash__, __index__,
__len__, __iter__ and __lt__ mutate the pool's containers or raise. Results
go back into the pool, so later calls work on what earlier ones made.

The run is deterministic for a seed. A crash or a hang is the interpreter's
bug: tests/test_fuzz_builtins.py reruns the seed with VERBOSE=1, which
prints each call (flushed) before making it, so the last line names the
culprit.
"""
import bisect
import collections
import heapq
import itertools
import math
import os
import random
import sys

SEED = int(sys.argv[1]) if len(sys.argv) > 1 else 1
CALLS = int(sys.argv[2]) if len(sys.argv) > 2 else 2000
VERBOSE = len(sys.argv) > 3 and sys.argv[3] == "1"
rng = random.Random(SEED)

pool = []


def victim():
    """A container of the pool for a hostile object to mutate."""
    conts = [v for v in pool if isinstance(v, MUTABLE)]
    return rng.choice(conts) if conts else None


def mutate(v=None):
    if v is None:
        v = victim()
    if v is None:
        return
    kind = rng.randrange(4)
    if kind == 0:
        v.clear()
    elif isinstance(v, collections.deque):
        v.rotate(1) if kind == 1 else v.extend(range(rng.randrange(5)))
    elif isinstance(v, list):
        v.extend(range(rng.randrange(5)))
    elif isinstance(v, dict):
        v[rng.randrange(100)] = kind
    elif isinstance(v, set):
        v.add(rng.randrange(100))
    elif isinstance(v, bytearray):
        v.extend(b"xyz")


MUTABLE = (list, dict, set, bytearray, collections.deque)


class Hostile:
    """Every protocol method may mutate a pool container or raise."""

    def __init__(self, n, target=None):
        self.n = n
        self.target = target   # the container it lives in: mutated from inside its own operations

    def _act(self):
        r = rng.random()
        if r < 0.3:
            mutate(self.target if self.target is not None and rng.random() < 0.7 else None)
        elif r < 0.4:
            raise ValueError("hostile")

    def __eq__(self, other):
        self._act()
        return rng.random() < 0.5

    def __lt__(self, other):
        self._act()
        return rng.random() < 0.5

    def __hash__(self):
        self._act()
        return self.n if rng.random() < 0.8 else -1

    def __index__(self):
        self._act()
        return rng.choice([0, 1, -1, self.n, 2**63, -2**63 - 1, 10**6])

    def __len__(self):
        self._act()
        return rng.choice([0, 1, self.n, 2**31])

    def __iter__(self):
        self._act()
        return iter([self.n, self, victim()])

    def __getitem__(self, i):
        self._act()
        if isinstance(i, int) and i > 5:
            raise IndexError(i)
        return self.n

    def __contains__(self, x):
        self._act()
        return True

    def __repr__(self):
        self._act()
        return "Hostile(%d)" % self.n

    def __bool__(self):
        self._act()
        return bool(self.n)

    def __float__(self):
        self._act()
        return float(self.n)

    def __int__(self):
        self._act()
        return self.n

    def __call__(self, *a, **k):
        self._act()
        return a[0] if a else self


class BadStr(str):
    def __hash__(self):
        mutate()
        return 7

    def __eq__(self, other):
        mutate()
        return str.__eq__(self, other)


def self_mutating():
    """Containers whose hostile items mutate the container itself."""
    l, d, s, b = [], {}, set(), bytearray(b"abc")
    l.extend(Hostile(i, l) for i in range(6))
    for i in range(6):
        try:   # the items' own __hash__/__eq__ may raise or mutate already
            d[Hostile(i, d)] = Hostile(i, d)
            s.add(Hostile(i, s))
        except ValueError:
            pass
    q = collections.deque(Hostile(i, None) for i in range(4))
    for h in q:
        h.target = q
    od = collections.OrderedDict()
    for i in range(3):
        try:   # a key's __hash__ may raise already
            od[Hostile(i, od)] = i
        except ValueError:
            pass
    dd = collections.defaultdict(list, {1: [2]})
    # slices whose bounds' __index__ mutates the list or bytearray being sliced
    hs = [slice(Hostile(0, l), Hostile(4, l), Hostile(2, l)), slice(Hostile(1, b), None, Hostile(-1, b))]
    return [l, d, s, b, q, od, dd, [Hostile(1, b), Hostile(2, b)], list(d), sorted(range(5), key=lambda i: i)] + hs


def fresh_values():
    return self_mutating() + [
        0, 1, -1, 2, 7, 255, 256, 2**31, 2**63, -2**63, 2**64 + 3, 10**30, -10**25, True, False, None,
        0.0, -0.0, 1.5, -2.25, 1e308, 5e-324, float("inf"), float("-inf"), float("nan"),
        complex(1, 2), complex(float("nan"), 0),
        "", "a", "abc", "é€", "\udcff", "x\ud800y", "a\x00b", "ß" * 5, "{}{0}%s", "%d %s %r", "  pad  ",
        "\t\n", "ABC def", "3.5", "-17", "0x1f", "1_000", "inf", "\U0001F600",
        b"", b"a", b"\xff\xfe", b"abc\x00", b"\xed\xa0\x80", b"%s %d",
        bytearray(b"hello"), bytearray(),
        [], [1, 2, 3], [3, "a", None], list(range(20)), [[1], [2, [3]]],
        (), (1,), (1, "b", 2.0), ((1, 2), (3, 4)),
        {}, {1: 2, "a": "b"}, {(1, 2): [3]},
        set(), {1, 2, 3}, frozenset({"x", "y"}),
        range(0), range(10), range(-5, 50, 3), range(2**62, 2**63, 2**60),
        slice(1, 5), slice(None, None, -1), slice(0, 10, 0),
        Hostile(0), Hostile(3), Hostile(-1), BadStr("key"), BadStr(""),
        int, str, list, dict, tuple, set, bytes, object, type, Exception,
        len, repr, sorted, abs, iter, Hostile(5),
    ]


BUILTIN_NAMES = [
    "abs", "all", "any", "ascii", "bin", "bool", "bytearray", "bytes", "callable", "chr", "complex",
    "dict", "dir", "divmod", "enumerate", "filter", "float", "format", "frozenset", "getattr",
    "hasattr", "hash", "hex", "id", "int", "isinstance", "issubclass", "iter", "len", "list", "map",
    "max", "min", "next", "oct", "ord", "pow", "range", "repr", "reversed", "round", "set", "slice",
    "sorted", "str", "sum", "tuple", "type", "zip", "setattr", "delattr", "vars", "object",
]
BUILTINS = [getattr(__builtins__, n, None) if not isinstance(__builtins__, dict) else __builtins__.get(n)
            for n in BUILTIN_NAMES]
BUILTINS = [b for b in BUILTINS if b is not None]
MODULE_FUNCS = [heapq.heappush, heapq.heappop, heapq.heapify, itertools.islice, itertools.product,
                collections.Counter, collections.OrderedDict, math.sqrt, math.floor, math.ceil, math.gcd, math.isqrt, math.log, math.fsum, math.prod,
                math.comb, math.perm, math.factorial, math.ldexp, math.frexp, math.copysign,
                os.fsencode, os.fsdecode, os.path.join, os.path.basename, os.path.normpath,
                os.path.splitext, os.path.split,
                bisect.bisect_left, bisect.bisect_right, bisect.insort_left, bisect.insort_right]
for _name, _funcs in (("_stat", ("filemode", "S_ISDIR", "S_IMODE", "S_IFMT")), ("_md5", ("md5",)),
                      ("_sha256", ("sha256",)), ("_sha3", ("sha3_256", "shake_128"))):
    try:   # tmpy's native modules (python3 has them too)
        _mod = __import__(_name)
        MODULE_FUNCS.extend(getattr(_mod, f) for f in _funcs)
    except ImportError:
        pass
# Methods that would run for a very long time or touch the machine.
SKIP_METHODS = {"__init_subclass__", "__subclasshook__", "__reduce__", "__reduce_ex__", "__setstate__",
                "__class__", "__new__", "__init__", "mro", "__del__"}
# Calls that can legitimately take a long time (or memory) with big arguments.
SLOW = {itertools.product, collections.Counter, pow, math.factorial, math.comb, math.perm, math.prod, math.ldexp, bytes, bytearray, range, list,
        tuple, set, frozenset, sorted, sum, max, min, all, any, str, format}
SIZED = ("mul", "pow", "shift", "to_bytes", "bits", "bytes", "center", "just", "zfill", "expandtabs", "format", "extend", "insert",
         "fromhex", "fill", "join", "__getitem__", "range", "repeat")


def small(v):
    """Arguments for calls that are slow with big values."""
    return not (isinstance(v, int) and abs(v) > 10**4) and not isinstance(v, (range, Hostile))


def pick_callable():
    r = rng.random()
    if r < 0.35:
        return rng.choice(BUILTINS)
    if r < 0.45:
        return rng.choice(MODULE_FUNCS)
    obj = rng.choice(pool)
    try:
        names = [n for n in dir(obj) if n not in SKIP_METHODS]
    except Exception:
        return None
    if not names:
        return None
    try:
        return getattr(obj, rng.choice(sorted(names)))
    except Exception:
        return None


def describe(f):
    try:
        return getattr(f, "__qualname__", None) or type(f).__name__
    except Exception:
        return "?"


def safe_repr(v):
    """What a value is, without calling any of its methods (a hostile
    object's methods draw from rng: the replay must draw the same)."""
    t = type(v)
    if t in (int, float, complex, bool, type(None)):
        return repr(v)[:80]
    if t in (str, bytes):
        return repr(v[:40])
    if t in (list, tuple, dict, set, frozenset, bytearray, range):
        return "%s of %d" % (t.__name__, len(v))
    return "<" + t.__name__ + ">"


def one_call(i):
    f = pick_callable()
    if f is None or not callable(f):
        return
    args = [rng.choice(pool) for _ in range(rng.randrange(4))]
    name = describe(f)
    slow = any(f is g for g in SLOW)   # not `f in SLOW`: hashing a hostile's bound method runs its __hash__
    if (slow or any(w in name for w in SIZED)) and not all(small(a) for a in args):
        return
    if VERBOSE:
        print(i, describe(f), [safe_repr(a) for a in args], flush=True)
    try:
        res = f(*args)
    except (Exception, RecursionError):
        return
    # iter(f, sentinel) may never end: a consumer of it would hang (in CPython too)
    if res is not None and len(pool) < 400 and rng.random() < 0.3 and type(res).__name__ != "callable_iterator":
        try:
            size = len(res) if hasattr(res, "__len__") and not isinstance(res, Hostile) else 0
        except Exception:
            size = 0
        if size < 10**5:
            pool.append(res)


def main():
    pool.extend(fresh_values())
    for i in range(CALLS):
        if i % 500 == 0:
            del pool[:]
            pool.extend(fresh_values())
        one_call(i)
    print("ok", SEED, CALLS)


main()
