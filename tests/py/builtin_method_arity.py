"""Built-in methods and functions called with a wrong number of arguments or with keywords:
the exception's type and message. CPython words them by the kind of function: "list.append()
takes exactly one argument (0 given)", "list.clear() takes no arguments (1 given)", "pop expected
at most 1 argument, got 2", "index() takes at least 1 argument (0 given)", "expected 0 arguments,
got 1" (slot wrappers), "list.pop() takes no keyword arguments"; a bound method is named by its
receiver's type, a module function by its module ("math.sqrt()") unless CPython's is METH_VARARGS."""
import _thread
import atexit
import builtins
import cmath
import codecs
import collections
import gc
import io
import itertools
import math
import re
import struct
import sys
import time


def gen():
    yield 1


# "name = factory" then the methods called on a fresh object: "method:how,..." where a number
# is how many positional arguments (all 0) and "kw" is one keyword argument.
TYPES = """
list = [3, 1, 2]
    __add__:0,4,kw __contains__:0,4,kw __delitem__:0,4,kw __iadd__:0,4,kw __imul__:kw __iter__:1,4,kw
    __len__:1,4,kw __mul__:kw __reversed__:1,4,kw __rmul__:kw __setitem__:kw append:0,4,kw clear:1,4,kw
    copy:1,4,kw count:0,4,kw extend:0,4,kw index:0,4,kw insert:0,4,kw pop:2,4,kw remove:0,4,kw reverse:1,4,kw
    sort:1,2,kw
tuple = (1, 2)
    __add__:0,4,kw __contains__:0,4,kw __getitem__:0,4,kw __getnewargs__:1,4,kw __iter__:1,4,kw __len__:1,4,kw
    __mul__:kw __rmul__:kw count:0,4,kw index:0,4,kw
dict = {1: 2}
    __delitem__:0,4,kw __ior__:0,4,kw __iter__:1,4,kw __len__:1,4,kw __or__:0,4,kw __reversed__:1,4,kw
    __ror__:0,4,kw __setitem__:kw clear:1,4,kw copy:1,4,kw fromkeys:0,4,kw get:0,4,kw items:1,4,kw keys:1,4,kw
    pop:0,4,kw popitem:1,4,kw setdefault:0,4,kw update:2,4 values:1,4,kw
set = {1, 2}
    __and__:0,4,kw __iand__:0,4,kw __ior__:0,4,kw __isub__:0,4,kw __iter__:1,4,kw __ixor__:0,4,kw
    __len__:1,4,kw __or__:0,4,kw __rand__:0,4,kw __ror__:0,4,kw __rsub__:0,4,kw __rxor__:0,4,kw __sub__:0,4,kw
    __xor__:0,4,kw add:0,4,kw clear:1,4,kw copy:1,4,kw discard:0,4,kw isdisjoint:0,4,kw issubset:0,4,kw
    issuperset:0,4,kw pop:1,4,kw remove:0,4,kw symmetric_difference:0,4,kw symmetric_difference_update:0,4,kw
frozenset = frozenset({1})
    __and__:0,4,kw __iter__:1,4,kw __len__:1,4,kw __or__:0,4,kw __rand__:0,4,kw __ror__:0,4,kw __rsub__:0,4,kw
    __rxor__:0,4,kw __sub__:0,4,kw __xor__:0,4,kw copy:1,4,kw isdisjoint:0,4,kw issubset:0,4,kw
    issuperset:0,4,kw symmetric_difference:0,4,kw
str = 'abc'
    __add__:0,4,kw __contains__:0,4,kw __getitem__:0,4,kw __getnewargs__:1,4,kw __iter__:1,4,kw __len__:1,4,kw
    __mod__:0,4,kw __mul__:kw __rmod__:0,4,kw __rmul__:kw capitalize:1,4,kw casefold:1,4,kw center:0,4,kw
    count:0,4,kw encode:1,4,kw endswith:0,4,kw expandtabs:2,4,kw find:0,4,kw format_map:0,4,kw index:0,4,kw
    isalnum:1,4,kw isalpha:1,4,kw isascii:1,4,kw isdecimal:1,4,kw isdigit:1,4,kw isidentifier:1,4,kw
    islower:1,4,kw isnumeric:1,4,kw isprintable:1,4,kw isspace:1,4,kw istitle:1,4,kw isupper:1,4,kw
    join:0,4,kw ljust:0,4,kw lower:1,4,kw lstrip:2,4,kw maketrans:0,4,kw partition:0,4,kw removeprefix:0,4,kw
    removesuffix:0,4,kw replace:0,4,kw rfind:0,4,kw rindex:0,4,kw rjust:0,4,kw rpartition:0,4,kw rsplit:3,4,kw
    rstrip:2,4,kw split:3,4,kw splitlines:2,4,kw startswith:0,4,kw strip:2,4,kw swapcase:1,4,kw title:1,4,kw
    translate:0,4,kw upper:1,4,kw zfill:0,4,kw
bytes = b'abc'
    __add__:0,4,kw __contains__:0,4,kw __getitem__:0,4,kw __getnewargs__:1,4,kw __iter__:1,4,kw __len__:1,4,kw
    __mod__:0,4,kw __mul__:kw __rmod__:0,4,kw __rmul__:kw capitalize:1,4,kw center:0,4,kw count:0,4,kw
    decode:1,4,kw endswith:0,4,kw expandtabs:2,4,kw find:0,4,kw fromhex:0,4,kw hex:3,4,kw index:0,4,kw
    isalnum:1,4,kw isalpha:1,4,kw isascii:1,4,kw isdigit:1,4,kw islower:1,4,kw isspace:1,4,kw istitle:1,4,kw
    isupper:1,4,kw join:0,4,kw ljust:0,4,kw lower:1,4,kw lstrip:2,4,kw maketrans:0,4,kw partition:0,4,kw
    removeprefix:0,4,kw removesuffix:0,4,kw replace:0,4,kw rfind:0,4,kw rindex:0,4,kw rjust:0,4,kw
    rpartition:0,4,kw rsplit:3,4,kw rstrip:2,4,kw split:3,4,kw splitlines:2,4,kw startswith:0,4,kw
    strip:2,4,kw swapcase:1,4,kw title:1,4,kw translate:0,4,kw upper:1,4,kw zfill:0,4,kw
bytearray = bytearray(b'ab')
    __add__:0,4,kw __contains__:0,4,kw __delitem__:0,4,kw __getitem__:0,4,kw __iadd__:0,4,kw __imul__:kw
    __iter__:1,4,kw __len__:1,4,kw __mod__:0,4,kw __mul__:kw __rmod__:0,4,kw __rmul__:kw __setitem__:kw
    append:0,4,kw capitalize:1,4,kw center:0,4,kw clear:1,4,kw copy:1,4,kw count:0,4,kw decode:1,4,kw
    endswith:0,4,kw expandtabs:2,4,kw extend:0,4,kw find:0,4,kw fromhex:0,4,kw hex:3,4,kw index:0,4,kw
    insert:0,4,kw isalnum:1,4,kw isalpha:1,4,kw isascii:1,4,kw isdigit:1,4,kw islower:1,4,kw isspace:1,4,kw
    istitle:1,4,kw isupper:1,4,kw join:0,4,kw ljust:0,4,kw lower:1,4,kw lstrip:2,4,kw maketrans:0,4,kw
    partition:0,4,kw pop:2,4,kw remove:0,4,kw removeprefix:0,4,kw removesuffix:0,4,kw replace:0,4,kw
    reverse:1,4,kw rfind:0,4,kw rindex:0,4,kw rjust:0,4,kw rpartition:0,4,kw rsplit:3,4,kw rstrip:2,4,kw
    split:3,4,kw splitlines:2,4,kw startswith:0,4,kw strip:2,4,kw swapcase:1,4,kw title:1,4,kw
    translate:0,4,kw upper:1,4,kw zfill:0,4,kw
int = 5
    __abs__:1,4,kw __add__:0,4,kw __and__:0,4,kw __bool__:1,4,kw __ceil__:1,4,kw __divmod__:0,4,kw
    __float__:1,4,kw __floor__:1,4,kw __floordiv__:0,4,kw __getnewargs__:1,4,kw __index__:1,4,kw
    __int__:1,4,kw __invert__:1,4,kw __lshift__:0,4,kw __mod__:0,4,kw __mul__:0,4,kw __neg__:1,4,kw
    __or__:0,4,kw __pos__:1,4,kw __pow__:kw __radd__:0,4,kw __rand__:0,4,kw __rdivmod__:0,4,kw
    __rfloordiv__:0,4,kw __rlshift__:0,4,kw __rmod__:0,4,kw __rmul__:0,4,kw __ror__:0,4,kw __round__:2,4,kw
    __rpow__:kw __rrshift__:0,4,kw __rshift__:0,4,kw __rsub__:0,4,kw __rtruediv__:0,4,kw __rxor__:0,4,kw
    __sub__:0,4,kw __truediv__:0,4,kw __trunc__:1,4,kw __xor__:0,4,kw as_integer_ratio:1,4,kw bit_count:1,4,kw
    bit_length:1,4,kw conjugate:1,4,kw from_bytes:0,4 to_bytes:2,4,kw
float = 1.5
    __abs__:1,4,kw __add__:0,4,kw __bool__:1,4,kw __ceil__:1,4,kw __divmod__:0,4,kw __float__:1,4,kw
    __floor__:1,4,kw __floordiv__:0,4,kw __getformat__:0,4,kw __getnewargs__:1,4,kw __int__:1,4,kw
    __mod__:0,4,kw __mul__:0,4,kw __neg__:1,4,kw __pos__:1,4,kw __pow__:2,kw __radd__:0,4,kw
    __rdivmod__:0,4,kw __rfloordiv__:0,4,kw __rmod__:0,4,kw __rmul__:0,4,kw __round__:2,4,kw __rpow__:kw
    __rsub__:0,4,kw __rtruediv__:0,4,kw __sub__:0,4,kw __truediv__:0,4,kw __trunc__:1,4,kw
    as_integer_ratio:1,4,kw conjugate:1,4,kw fromhex:0,4,kw hex:1,4,kw is_integer:1,4,kw
complex = 1j
    __abs__:1,4,kw __add__:0,4,kw __bool__:1,4,kw __complex__:1,4,kw __getnewargs__:1,4,kw __mul__:0,4,kw
    __neg__:1,4,kw __pos__:1,4,kw __pow__:kw __radd__:0,4,kw __rmul__:0,4,kw __rpow__:kw __rsub__:0,4,kw
    __rtruediv__:0,4,kw __sub__:0,4,kw __truediv__:0,4,kw conjugate:1,4,kw
range = range(3)
    __bool__:1,4,kw __contains__:0,4,kw __getitem__:0,4,kw __iter__:1,4,kw __len__:1,4,kw __reversed__:1,4,kw
    count:0,4,kw index:0,4,kw
memoryview = memoryview(b'ab')
    __delitem__:0,4,kw __enter__:kw __getitem__:0,4,kw __iter__:1,4,kw __len__:1,4,kw __setitem__:kw cast:0,4
    hex:3,4,kw release:1,4,kw tobytes:1,4,kw tolist:1,4,kw toreadonly:1,4,kw
slice = slice(1, 2)
    indices:0,4,kw
deque = collections.deque([1])
    __add__:0,4,kw __contains__:0,4,kw __copy__:1,4,kw __delitem__:0,4,kw __getitem__:0,4,kw __iadd__:0,4,kw
    __imul__:kw __iter__:1,4,kw __len__:1,4,kw __mul__:kw __reversed__:1,4,kw __rmul__:kw __setitem__:kw
    append:0,4,kw appendleft:0,4,kw clear:1,4,kw copy:1,4,kw count:0,4,kw extend:0,4,kw extendleft:0,4,kw
    index:0,4,kw insert:0,4,kw pop:1,4,kw popleft:1,4,kw remove:0,4,kw reverse:1,4,kw rotate:2,4,kw
keys = {1: 2}.keys()
    __and__:0,4,kw __contains__:0,4,kw __iter__:1,4,kw __len__:1,4,kw __or__:0,4,kw __rand__:0,4,kw
    __reversed__:1,4,kw __ror__:0,4,kw __rsub__:0,4,kw __rxor__:0,4,kw __sub__:0,4,kw __xor__:0,4,kw
    isdisjoint:0,4,kw
values = {1: 2}.values()
    __iter__:1,4,kw __len__:1,4,kw __reversed__:1,4,kw
items = {1: 2}.items()
    __and__:0,4,kw __contains__:0,4,kw __iter__:1,4,kw __len__:1,4,kw __or__:0,4,kw __rand__:0,4,kw
    __reversed__:1,4,kw __ror__:0,4,kw __rsub__:0,4,kw __rxor__:0,4,kw __sub__:0,4,kw __xor__:0,4,kw
    isdisjoint:0,4,kw
listiter = iter([1])
    __iter__:1,4,kw __length_hint__:1,4,kw __next__:1,4,kw
tupleiter = iter((1,))
    __iter__:1,4,kw __length_hint__:1,4,kw __next__:1,4,kw
rangeiter = iter(range(2))
    __iter__:1,4,kw __length_hint__:1,4,kw __next__:1,4,kw
dictiter = iter({1: 2})
    __iter__:1,4,kw __length_hint__:1,4,kw __next__:1,4,kw
setiter = iter({1})
    __iter__:1,4,kw __length_hint__:1,4,kw __next__:1,4,kw
striter = iter('ab')
    __iter__:1,4,kw __length_hint__:1,4,kw __next__:1,4,kw
reversed = reversed([1])
    __iter__:1,4,kw __length_hint__:1,4,kw __next__:1,4,kw
gen = gen()
    __iter__:1,4,kw __next__:1,4,kw close:1,4,kw send:0,4,kw throw:0,4,kw
object = object()
    __dir__:1,4,kw __eq__:0,4,kw __format__:0,4,kw __ge__:0,4,kw __getstate__:1,4,kw __gt__:0,4,kw
    __hash__:1,4,kw __le__:0,4,kw __lt__:0,4,kw __ne__:0,4,kw __reduce__:1,4,kw __reduce_ex__:0,4,kw
    __repr__:1,4,kw __sizeof__:1,4,kw __str__:1,4,kw
exc = ValueError(1)
    __setstate__:0,4,kw add_note:0,4,kw with_traceback:0,4,kw
stringio = io.StringIO('x')
    __enter__:1,4,kw __iter__:1,4,kw __next__:1,4,kw close:1,4,kw detach:1,4,kw fileno:1,4,kw flush:1,4,kw
    getvalue:1,4,kw isatty:1,4,kw read:2,4,kw readable:1,4,kw readline:2,4,kw readlines:2,4,kw seek:0,4,kw
    seekable:1,4,kw tell:1,4,kw truncate:2,4,kw writable:1,4,kw write:0,4,kw writelines:0,4,kw
bytesio = io.BytesIO(b'x')
    __enter__:1,4,kw __iter__:1,4,kw __next__:1,4,kw close:1,4,kw detach:1,4,kw fileno:1,4,kw flush:1,4,kw
    getbuffer:1,4,kw getvalue:1,4,kw isatty:1,4,kw read:2,4,kw read1:2,4,kw readable:1,4,kw readinto:0,4,kw
    readline:2,4,kw readlines:2,4,kw seek:0,4,kw seekable:1,4,kw tell:1,4,kw truncate:2,4,kw writable:1,4,kw
    write:0,4,kw writelines:0,4,kw
pattern = re.compile('a')
    __copy__:1,4,kw __deepcopy__:0,4,kw findall:0,4 split:0,4
match = re.match('a', 'a')
    __copy__:1,4,kw __deepcopy__:0,4,kw __getitem__:0,4,kw end:2,4,kw group:kw groupdict:2,4,kw groups:2,4,kw
    span:2,4,kw start:2,4,kw
lock = _thread.allocate_lock()
    acquire:3,4,kw acquire_lock:3,4,kw locked:1,4,kw locked_lock:1,4,kw release:kw release_lock:kw
count = itertools.count()
    __iter__:1,4,kw __next__:1,4,kw
defaultdict = collections.defaultdict(int)
    __delitem__:0,4,kw __ior__:0,4,kw __iter__:1,4,kw __len__:1,4,kw __missing__:0,4,kw __or__:0,4,kw
    __reversed__:1,4,kw __ror__:0,4,kw __setitem__:kw clear:1,4,kw fromkeys:0,4,kw get:0,4,kw items:1,4,kw
    keys:1,4,kw pop:0,4,kw popitem:1,4,kw setdefault:0,4,kw update:2,4 values:1,4,kw
enumerate = enumerate([1])
    __iter__:1,4,kw __next__:1,4,kw
"""

# module functions: "7" is seven positional arguments (None), "kw" one keyword argument.
MODULES = """
math
    acos:7,kw acosh:7,kw asin:7,kw asinh:7,kw atan:7,kw atan2:7,kw atanh:7,kw cbrt:7,kw ceil:7,kw comb:7,kw
    copysign:7,kw cos:7,kw cosh:7,kw degrees:7,kw dist:7,kw erf:7,kw erfc:7,kw exp:7,kw exp2:7,kw expm1:7,kw
    fabs:7,kw factorial:7,kw floor:7,kw fmod:7,kw frexp:7,kw fsum:7,kw gamma:7,kw gcd:kw hypot:kw isclose:7
    isfinite:7,kw isinf:7,kw isnan:7,kw isqrt:7,kw lcm:kw ldexp:7,kw lgamma:7,kw log:7,kw log10:7,kw
    log1p:7,kw log2:7,kw modf:7,kw nextafter:7,kw perm:7,kw pow:7,kw prod:7 radians:7,kw remainder:7,kw
    sin:7,kw sinh:7,kw sqrt:7,kw tan:7,kw tanh:7,kw trunc:7,kw ulp:7,kw
time
    asctime:7,kw ctime:7,kw gmtime:7,kw localtime:7,kw mktime:7,kw monotonic:7,kw monotonic_ns:7,kw
    perf_counter:7,kw perf_counter_ns:7,kw process_time:7,kw process_time_ns:7,kw sleep:7,kw strftime:7,kw
    thread_time:7,kw thread_time_ns:7,kw time:7,kw time_ns:7,kw
sys
    __displayhook__:7,kw __excepthook__:7,kw _getframe:7,kw audit:kw displayhook:7,kw exc_info:7,kw
    excepthook:7,kw exception:7,kw get_asyncgen_hooks:7,kw get_int_max_str_digits:7,kw getdefaultencoding:7,kw
    getfilesystemencodeerrors:7,kw getfilesystemencoding:7,kw getprofile:7,kw getrecursionlimit:7,kw
    getrefcount:7,kw getsizeof:7 getswitchinterval:7,kw gettrace:7,kw intern:7,kw is_finalizing:7,kw
    set_int_max_str_digits:7 setprofile:7,kw setswitchinterval:7,kw settrace:7,kw
builtins
    __build_class__:kw __import__:7 abs:7,kw aiter:7,kw all:7,kw anext:7,kw any:7,kw ascii:7,kw bin:7,kw
    callable:7,kw chr:7,kw compile:7 delattr:7,kw dir:7,kw divmod:7,kw eval:7,kw exec:7 format:7,kw
    getattr:7,kw globals:7,kw hasattr:7,kw hash:7,kw hex:7,kw id:7,kw isinstance:7,kw issubclass:7,kw
    iter:7,kw len:7,kw locals:7,kw next:7,kw oct:7,kw ord:7,kw pow:7 repr:7,kw round:7 setattr:7,kw
    sorted:7,kw sum:7,kw vars:7,kw
_thread
    _count:7,kw allocate:7,kw allocate_lock:7,kw get_ident:7,kw get_native_id:7,kw stack_size:7,kw
    start_new:kw start_new_thread:7,kw
gc
    collect:7,kw disable:7,kw enable:7,kw get_count:7,kw get_threshold:7,kw isenabled:7,kw set_threshold:7,kw
cmath
    acos:7,kw acosh:7,kw asin:7,kw asinh:7,kw atan:7,kw atanh:7,kw cos:7,kw cosh:7,kw exp:7,kw isclose:7
    isfinite:7,kw isinf:7,kw isnan:7,kw log:7,kw log10:7,kw phase:7,kw polar:7,kw rect:7,kw sin:7,kw sinh:7,kw
    sqrt:7,kw tan:7,kw tanh:7,kw
struct
    _clearcache:7,kw calcsize:7,kw iter_unpack:7,kw pack:7,kw pack_into:7,kw unpack:7,kw unpack_from:7
codecs
    backslashreplace_errors:7,kw charmap_build:7,kw decode:7 encode:7 ignore_errors:7,kw lookup:7,kw
    lookup_error:7,kw namereplace_errors:7,kw register:7,kw register_error:7,kw replace_errors:7,kw
    strict_errors:7,kw unregister:7,kw xmlcharrefreplace_errors:7,kw
atexit
    _clear:7,kw _ncallbacks:7,kw _run_exitfuncs:7,kw register:7,kw unregister:7,kw
"""


def show(label, call):
    try:
        r = call()
        print(label, "returned", type(r).__name__)
    except Exception as e:
        print(label, type(e).__name__ + ":", e)


def calls(spec):
    for item in spec.split():
        name, _, hows = item.partition(":")
        for how in hows.split(","):
            yield name, how


def run_types():
    factory = None
    for line in TYPES.strip().splitlines():
        if " = " in line:
            tname, _, expr = line.partition(" = ")
            factory = eval("lambda: " + expr)
            continue
        for meth, how in calls(line):
            if how == "kw":
                show(f"{tname}.{meth}(kw)", lambda: getattr(factory(), meth)(zzz=1))
            else:
                n = int(how)
                show(f"{tname}.{meth}({n})", lambda: getattr(factory(), meth)(*[0] * n))


def run_modules():
    module = None
    for line in MODULES.strip().splitlines():
        if not line.startswith(" "):
            module = globals()[line.strip()]
            continue
        for fname, how in calls(line):
            f = getattr(module, fname)
            if how == "kw":
                show(f"{module.__name__}.{fname}(kw)", lambda: f(zzz=None))
            else:
                show(f"{module.__name__}.{fname}({how})", lambda: f(*[None] * int(how)))


def run_unbound():
    # through the type: named by the defining type; descriptors check their receiver
    for call in (lambda: list.append(), lambda: list.append([]), lambda: dict.get({}),
                 lambda: list.append(1, 2), lambda: str.upper("a", 1), lambda: set.add(set()),
                 lambda: frozenset.copy(frozenset(), 1), lambda: object.__sizeof__([], 1),
                 lambda: dict.fromkeys(), lambda: int.from_bytes(), lambda: list.pop([], a=1)):
        show("unbound", call)


def run_direct():
    # called without a bound method object in between (the eval loop's method-call path)
    x, d, s = [1], {1: 2}, "abc"
    for call in (lambda: x.append(), lambda: x.append(1, 2), lambda: x.pop(1, 2), lambda: x.clear(1),
                 lambda: x.index(), lambda: x.count(), lambda: x.sort(1), lambda: x.__reduce_ex__(),
                 lambda: d.get(), lambda: d.get(1, 2, 3), lambda: d.pop(), lambda: d.setdefault(),
                 lambda: d.items(1), lambda: s.find(), lambda: s.split(1, 2, 3), lambda: s.join(),
                 lambda: s.startswith(), lambda: (1).bit_length(1), lambda: (1.5).hex(1), lambda: len(),
                 lambda: len(x, x), lambda: len(x=1), lambda: math.sqrt(), lambda: math.log(), lambda: isinstance(1)):
        show("direct", call)
    # CPython's METH_VARARGS methods: qualified through the type, bare once bound
    m = re.match("(a)", "a")
    find, group = s.find, m.group
    for call in (lambda: s.find(x=1), lambda: find(x=1), lambda: s.startswith(x=1), lambda: b"".count(x=1),
                 lambda: m.group(k=1), lambda: group(k=1), lambda: math.gcd(k=1), lambda: time.gmtime(k=1),
                 lambda: collections.deque().index(k=1)):
        show("varargs", call)
    eg = ExceptionGroup("g", [ValueError(), TypeError()])
    derive, split = eg.derive, eg.split
    for call in (lambda: eg.derive(), lambda: eg.derive(1, 2), lambda: eg.derive(k=1), lambda: derive(k=1),
                 lambda: eg.split(), lambda: eg.split(k=1), lambda: split(k=1), lambda: eg.subgroup(1, 2),
                 lambda: ExceptionGroup.__class_getitem__()):
        show("group", call)


run_types()
run_modules()
run_unbound()
run_direct()
