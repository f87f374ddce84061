# Integer arguments that the OS takes as a C int (file descriptors, modes,
# errno values, exit codes, struct tm fields) are range-checked as CPython
# does: os.close(2**32) must not close fd 0, strftime must not wrap a year.
import os
import time


def show(label, f):
    try:
        r = f()
    except Exception as e:
        print(label, '->', type(e).__name__, e)
    else:
        print(label, '->', r)


for v in [2**31, 2**32, 2**32 + 1, 2**63, -2**31 - 1, -2**32 + 1, 2**64 + 1]:
    show('close %d' % v, lambda: os.close(v))
    show('fstat %d' % v, lambda: os.fstat(v))
    show('stat %d' % v, lambda: os.stat(v))
    show('read %d' % v, lambda: os.read(v, 1))
    show('write %d' % v, lambda: os.write(v, b''))
    show('strerror %d' % v, lambda: os.strerror(v))
    show('open flags %d' % v, lambda: os.open('/nonexistent/x', v))
# the standard streams are still open
print('alive', os.fstat(0).st_mode > 0, os.fstat(1).st_mode > 0)
show('read huge', lambda: os.read(0, 2**62))
show('urandom huge', lambda: os.urandom(2**62))

base = (2000, 1, 1, 0, 0, 0, 0, 1, 0)
for i, v in [(0, 2**62), (0, 2**31), (0, -2**31), (0, -2**31 + 1900), (1, 2**32 + 1), (2, 2**32 + 1),
             (6, 2**32), (8, 2**40), (8, -2**40)]:
    tt = base[:i] + (v,) + base[i + 1:]
    show('strftime field %d = %d' % (i, v), lambda: time.strftime('%Y %m %d', tt))
    show('mktime field %d = %d' % (i, v), lambda: time.mktime(tt) is not None)
show('strftime nul', lambda: time.strftime('%Y\x00x', time.gmtime(0)))
show('strftime max year', lambda: time.strftime('%Y', (2**31 - 1,) + base[1:]))
