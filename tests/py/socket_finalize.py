# A socket left open is closed when collected, after CPython's ResourceWarning
# (its __del__), for _socket.socket and for a subclass with __slots__ as socket.py's.
import _socket
import gc
import os
import warnings
a, b = _socket.socketpair()
fa = a.fileno()
del a
gc.collect()
try:
    os.fstat(fa); print("open")
except OSError:
    print("closed by the collector")
class S(_socket.socket):
    __slots__ = ["__weakref__", "_io_refs", "_closed"]
s = S()
fs = s.fileno()
with warnings.catch_warnings(record=True) as w:
    warnings.simplefilter("always")
    del s
    gc.collect()
    print([str(x.message)[:24] for x in w], [x.category.__name__ for x in w])
try:
    os.fstat(fs); print("open")
except OSError:
    print("closed by the collector")
b.close()
