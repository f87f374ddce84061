# _stat (the C module stat.py's `from _stat import *` takes): every
# constant, filemode for every file type and permission bit, the S_IS*
# tests, S_IMODE/S_IFMT, real files' modes, and CPython's errors for a
# mode that is not an unsigned 32-bit int.
import os, stat, _stat, socket, tempfile

names = sorted(n for n in dir(_stat) if not n.startswith('__'))
print(names)
print([(n, getattr(_stat, n)) for n in names if not callable(getattr(_stat, n))])
print(all(getattr(stat, n) is getattr(_stat, n) for n in names), stat.filemode is _stat.filemode)

types = [stat.S_IFREG, stat.S_IFDIR, stat.S_IFLNK, stat.S_IFBLK, stat.S_IFCHR, stat.S_IFIFO, stat.S_IFSOCK,
         0, 0o170000, 0o150000, 0o030000, 0o110000]
checks = ['S_ISDIR', 'S_ISCHR', 'S_ISBLK', 'S_ISREG', 'S_ISFIFO', 'S_ISLNK', 'S_ISSOCK', 'S_ISDOOR', 'S_ISPORT',
          'S_ISWHT']
for t in types:
    print(oct(t), [getattr(_stat, c)(t | 0o644) for c in checks], _stat.S_IFMT(t | 0o7777), _stat.S_IMODE(t | 0o7777))
for t in types:
    print(oct(t), ' '.join(_stat.filemode(t | p) for p in range(0, 0o10000, 0o111)))
print(' '.join(_stat.filemode(0o100000 | p) for p in range(0o1000, 0o10000, 0o1000)))
print(' '.join(_stat.filemode(0o040000 | p) for p in (0o7000, 0o7777, 0o4100, 0o2010, 0o1001, 0o6000)))
print(_stat.filemode(True), _stat.filemode(2 ** 32 - 1), _stat.S_IMODE(2 ** 32 - 1), _stat.S_IFMT(2 ** 32 - 1))
class M(int): pass
print(_stat.filemode(M(0o100755)), _stat.S_ISREG(M(0o100755)), type(_stat.S_ISDIR(0o40000)).__name__)

# real files
d = tempfile.mkdtemp()
try:
    f = os.path.join(d, 'f'); open(f, 'w').close(); os.chmod(f, 0o640)
    os.symlink(f, os.path.join(d, 'l'))
    os.mkfifo(os.path.join(d, 'p'), 0o600)
    s = socket.socket(socket.AF_UNIX); s.bind(os.path.join(d, 's'))
    os.mkdir(os.path.join(d, 'd'), 0o755)
    for name in ['f', 'l', 'p', 's', 'd']:
        m = os.lstat(os.path.join(d, name)).st_mode
        print(name, _stat.filemode(m)[0], _stat.filemode(m) if name in 'fd' else '',
              [c for c in checks if getattr(_stat, c)(m)], _stat.S_IFMT(m) == getattr(stat, 'S_IF' + {
                  'f': 'REG', 'l': 'LNK', 'p': 'IFO', 's': 'SOCK', 'd': 'DIR'}[name]))
    s.close()
    m = os.stat('/dev/null').st_mode
    print(_stat.filemode(m)[0], _stat.S_ISCHR(m))
finally:
    for name in ['f', 'l', 'p', 's']:
        try: os.unlink(os.path.join(d, name))
        except OSError: pass
    os.rmdir(os.path.join(d, 'd')); os.rmdir(d)

class Idx:
    def __index__(self): return 0o40755
for bad in [-1, -2 ** 31, -2 ** 63, -2 ** 70, 2 ** 32, 2 ** 63, 2 ** 64 - 1, 2 ** 64, 2 ** 100, 1.0, '7', None, Idx()]:
    out = []
    for fn in (_stat.S_ISDIR, _stat.S_IMODE, _stat.S_IFMT, _stat.filemode):
        try:
            out.append(repr(fn(bad)))
        except Exception as e:
            out.append('%s: %s' % (type(e).__name__, e))
    print(out)
for f in [lambda: _stat.S_ISDIR(), lambda: _stat.S_ISREG(1, 2), lambda: _stat.filemode(mode=1),
          lambda: _stat.S_IMODE(), lambda: _stat.S_IFMT(1, x=2)]:
    try: f()
    except TypeError as e: print(e)
print(_stat.S_ISDIR.__doc__, _stat.S_ISFIFO.__doc__, _stat.filemode.__doc__, _stat.S_IMODE.__doc__, sep='|')
