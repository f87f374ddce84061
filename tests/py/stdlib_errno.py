# errno (C): every name CPython's has on Linux, and errorcode.
import errno
import os

names = sorted(n for n in dir(errno) if n.startswith("E"))
print(len(names), len(errno.errorcode))
print([(n, getattr(errno, n)) for n in names])
print(sorted(errno.errorcode.items()))
try:
    os.stat("/no/such/file")
except OSError as e:
    print(e.errno == errno.ENOENT, errno.errorcode[e.errno])
