# CPython's os.py over tmpy's native posix module: files, directories,
# file descriptors, scandir/DirEntry, stat_result, dir_fd, the environment.
import os
import stat
import sys
import tempfile


def show(label, f):
    try:
        r = f()
    except Exception as e:
        print(label, '->', type(e).__name__, e)
    else:
        print(label, '->', r)


d = tempfile.mkdtemp()
os.chdir(d)
print(os.getcwd() == d, os.getcwdb() == os.fsencode(d))

# files, stat_result
fd = os.open('f.txt', os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o640)
print('inheritable', os.get_inheritable(fd), 'blocking', os.get_blocking(fd))
print('write', os.write(fd, b'hello world\n'), os.write(fd, bytearray(b'more')))
os.close(fd)
st = os.stat('f.txt')
print(type(st).__name__, len(st), st.st_size, stat.S_ISREG(st.st_mode), oct(stat.S_IMODE(st.st_mode)))
print(st[6] == st.st_size, st[8] == int(st.st_mtime), isinstance(st.st_mtime, float), isinstance(st.st_mtime_ns, int))
print(st.st_mtime_ns // 10**9 == st[8], st.st_nlink, st.st_uid == os.getuid(), st.st_blksize > 0)
print(os.stat_result.n_sequence_fields, repr(st).startswith('os.stat_result(st_mode='))
fd = os.open('f.txt', os.O_RDWR)
print(os.read(fd, 5), os.lseek(fd, 0, os.SEEK_CUR), os.lseek(fd, -4, os.SEEK_END), os.read(fd, 100), os.read(fd, 10))
print(os.fstat(fd).st_size, os.stat(fd).st_size)
os.ftruncate(fd, 5)
os.lseek(fd, 0, os.SEEK_SET)
print(os.read(fd, 100))
fd2 = os.dup(fd)
print('dup inheritable', os.get_inheritable(fd2))
os.set_inheritable(fd2, True)
print('now', os.get_inheritable(fd2))
print('dup2', os.dup2(fd, fd2) == fd2, os.get_inheritable(fd2), os.dup2(fd, fd2, inheritable=False) == fd2, os.get_inheritable(fd2))
os.set_blocking(fd2, False)
print('blocking', os.get_blocking(fd2), os.get_blocking(fd))
os.close(fd2)
os.close(fd)
show('close closed', lambda: os.close(fd))
show('read closed', lambda: os.read(fd, 1))
show('fstat closed', lambda: os.fstat(fd))
os.truncate('f.txt', 2)
print(open('f.txt', 'rb').read())
print(os.access('f.txt', os.R_OK), os.access('nope', os.F_OK), os.access('f.txt', os.X_OK))
os.chmod('f.txt', 0o600)
print(oct(stat.S_IMODE(os.stat('f.txt').st_mode)))
old = os.umask(0o22)
print('umask', oct(os.umask(old)))
os.utime('f.txt', (1000000000, 1000000001.5))
st = os.stat('f.txt')
print(st.st_atime, st.st_mtime, st.st_atime_ns, st.st_mtime_ns)
os.utime('f.txt', ns=(5 * 10**9 + 7, 6 * 10**9 + 9))
print(os.stat('f.txt').st_atime_ns, os.stat('f.txt').st_mtime_ns)
show('utime both', lambda: os.utime('f.txt', (1, 2), ns=(1, 2)))
show('utime one', lambda: os.utime('f.txt', (1,)))

# pipes
r, w = os.pipe()
print('pipe', os.get_inheritable(r), os.get_inheritable(w), os.isatty(r))
os.write(w, b'through the pipe')
os.close(w)
print(os.read(r, 100), os.read(r, 100))
os.close(r)
r, w = os.pipe2(os.O_NONBLOCK)
show('nonblocking read', lambda: os.read(r, 1))
os.close(r)
os.close(w)

# directories
os.makedirs('a/b/c')
os.makedirs('a/b/c', exist_ok=True)
show('makedirs again', lambda: os.makedirs('a/b/c'))
show('mkdir exists', lambda: os.mkdir('a'))
show('rmdir not empty', lambda: os.rmdir('a'))
show('rmdir missing', lambda: os.rmdir('missing'))
show('unlink missing', lambda: os.unlink('missing'))
show('rename missing', lambda: os.rename('missing', 'other'))
show('listdir missing', lambda: os.listdir('missing'))
show('stat missing', lambda: os.stat('missing'))
show('open missing', lambda: os.open('missing', os.O_RDONLY))
show('stat bad type', lambda: os.stat(1.5))
show('stat nul', lambda: os.stat('a\0b'))
show('listdir bad type', lambda: os.listdir(2.5))
for name in ['a/x.txt', 'a/b/y.txt', 'a/b/c/z.txt']:
    with open(name, 'w') as f:
        f.write(name)
os.symlink('x.txt', 'a/link')
os.symlink('b', 'a/dirlink')
print(os.readlink('a/link'), os.readlink(b'a/link'), os.path.islink('a/link'))
show('readlink not link', lambda: os.readlink('a/x.txt'))
show('symlink exists', lambda: os.symlink('x', 'a/link'))
print(sorted(os.listdir('a')), sorted(os.listdir(b'a')))
with os.scandir('a') as it:
    entries = sorted(it, key=lambda e: e.name)
for e in entries:
    print(repr(e), e.name, e.path, e.is_dir(), e.is_file(), e.is_symlink(), e.is_dir(follow_symlinks=False),
          e.stat().st_size == os.stat(e.path).st_size, e.stat(follow_symlinks=False).st_ino == e.inode(),
          os.fspath(e))
print(isinstance(entries[0], os.DirEntry), [e.name for e in os.scandir(b'a/b')])
print(sorted(e.path for e in os.scandir()))
for top, dirs, files in os.walk('a'):
    dirs.sort()
    print('walk', top, dirs, sorted(files))
up = [(top, sorted(dirs), sorted(files)) for top, dirs, files in os.walk('a', topdown=False, followlinks=True)]
print('walk up', sorted(up))
print('bottom-up order', up.index(('a/b/c', [], ['z.txt'])) < up.index(('a/b', ['c'], ['y.txt'])), up[-1][0])
for top, dirs, files, dfd in os.fwalk('a'):
    dirs.sort()
    print('fwalk', top, dirs, sorted(files), os.stat('x.txt' if top == 'a' else '.', dir_fd=dfd).st_size >= 0)

# dir_fd
dfd = os.open('a', os.O_RDONLY | os.O_DIRECTORY)
print(sorted(os.listdir(dfd)), sorted(e.name for e in os.scandir(dfd)))
fd = os.open('new.txt', os.O_WRONLY | os.O_CREAT, dir_fd=dfd)
os.write(fd, b'12345')
os.close(fd)
print(os.stat('new.txt', dir_fd=dfd).st_size, os.stat('link', dir_fd=dfd, follow_symlinks=False).st_size)
os.mkdir('sub', dir_fd=dfd)
os.rename('new.txt', 'sub/new.txt', src_dir_fd=dfd, dst_dir_fd=dfd)
os.unlink('sub/new.txt', dir_fd=dfd)
os.rmdir('sub', dir_fd=dfd)
print(sorted(os.listdir('a')))
os.close(dfd)
os.link('a/x.txt', 'hard')
print(os.stat('hard').st_nlink, os.path.samefile('hard', 'a/x.txt'))
os.replace('hard', 'a/x2.txt')
os.rename('a/x2.txt', 'a/x3.txt')
os.remove('a/x3.txt')

# environment
os.environ['TMPY_TEST_VAR'] = 'val\udcff'
print(os.environ['TMPY_TEST_VAR'] == 'val\udcff', os.environb[b'TMPY_TEST_VAR'], os.getenv('TMPY_TEST_VAR') is not None)
del os.environ['TMPY_TEST_VAR']
print('TMPY_TEST_VAR' in os.environ, os.getenv('TMPY_TEST_VAR', 'gone'))
show('putenv bad', lambda: os.putenv('a=b', 'c'))
print(os.fsencode('a\udcffb'), os.fsdecode(b'a\xffb') == 'a\udcffb', os.fspath(b'x'))
show('fspath int', lambda: os.fspath(3))


class P:
    def __fspath__(self):
        return 'a'


print(os.fspath(P()), isinstance(P(), os.PathLike), sorted(os.listdir(P()))[:2], os.stat(P()).st_size >= 0)

# the rest
v = os.statvfs('.')
print(type(v).__name__, len(v), v.f_bsize > 0, v.f_fsid == os.fstatvfs(os.open('.', os.O_RDONLY)).f_fsid)
print(type(os.uname()).__name__, len(os.uname()), os.uname().sysname)
t = os.times()
print(type(t).__name__, len(t), all(isinstance(x, float) for x in t))
print(os.cpu_count() >= 1, os.sysconf('SC_PAGESIZE') > 0, os.sysconf_names['SC_OPEN_MAX'] > 0)
show('sysconf bad', lambda: os.sysconf('SC_NOPE'))
print(len(os.urandom(16)), os.strerror(2), os.getpid() > 0, os.getppid() > 0)
show('terminal size of a pipe', lambda: os.get_terminal_size(os.pipe()[0]))
print(os.device_encoding(os.pipe()[0]), os.O_RDONLY, os.SEEK_END, os.WNOHANG, os.EX_OK)
print(os.path.join('a', 'b'), os.sep, os.pathsep, os.linesep == '\n', os.devnull, os.name)

import shutil
os.chdir('/')
shutil.rmtree(d)
print(os.path.exists(d))
