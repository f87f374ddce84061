# CPython's shutil, tempfile and glob over os.py and tmpy's posix.
import glob
import os
import shutil
import stat
import tempfile

with tempfile.TemporaryDirectory() as d:
    print('tempdir', os.path.isdir(d), stat.S_IMODE(os.stat(d).st_mode) == 0o700)
    os.makedirs(os.path.join(d, 'a', 'b', 'c'))
    for n in ['a/x.txt', 'a/b/y.txt', 'a/b/c/z.py', 'a/.hidden']:
        with open(os.path.join(d, n), 'w') as f:
            f.write(n * 3)
    rel = lambda ps: sorted(os.path.relpath(p, d) for p in ps)
    print(rel(glob.glob(os.path.join(d, '**', '*.txt'), recursive=True)))
    print(rel(glob.glob(d + '/a/*')), rel(glob.glob(d + '/a/.*')), rel(glob.glob(d + '/a/[xy].txt')))
    print(sorted(glob.glob('**/*.py', root_dir=d, recursive=True)), rel(glob.iglob(d + '/*/b')))
    print(glob.escape('a[b]*?'), glob.has_magic('a*'), glob.glob(d + '/nothing*'))

    shutil.copy(os.path.join(d, 'a/x.txt'), os.path.join(d, 'copy.txt'))
    shutil.copy2(os.path.join(d, 'a/x.txt'), os.path.join(d, 'copy2.txt'))
    print(open(os.path.join(d, 'copy.txt')).read(),
          os.stat(os.path.join(d, 'copy2.txt')).st_mtime == os.stat(os.path.join(d, 'a/x.txt')).st_mtime)
    shutil.copyfile(os.path.join(d, 'a/b/y.txt'), os.path.join(d, 'y.copy'))
    shutil.copymode(os.path.join(d, 'a/x.txt'), os.path.join(d, 'y.copy'))
    shutil.copytree(os.path.join(d, 'a'), os.path.join(d, 'a2'), ignore=shutil.ignore_patterns('*.py'))
    walked = sorted((os.path.relpath(r, d), sorted(ds), sorted(fs)) for r, ds, fs in os.walk(d))
    for w in walked:
        print('walk', w)
    shutil.move(os.path.join(d, 'a2'), os.path.join(d, 'moved'))
    shutil.move(os.path.join(d, 'copy.txt'), os.path.join(d, 'moved', 'copy.txt'))
    print(sorted(os.listdir(d)), sorted(os.listdir(os.path.join(d, 'moved'))))
    os.symlink(os.path.join(d, 'a'), os.path.join(d, 'moved', 'link_to_a'))
    shutil.rmtree(os.path.join(d, 'moved'))
    print('rmtree kept the link target', os.path.exists(os.path.join(d, 'a', 'x.txt')),
          os.path.exists(os.path.join(d, 'moved')))
    try:
        shutil.rmtree(os.path.join(d, 'missing'))
    except FileNotFoundError as e:
        print('rmtree missing', e.errno, os.path.basename(e.filename))
    errors = []
    shutil.rmtree(os.path.join(d, 'missing'), onerror=lambda f, p, e: errors.append((f.__name__, e[0].__name__)))
    print('onerror', errors)
    shutil.rmtree(os.path.join(d, 'missing'), ignore_errors=True)
    print('which', shutil.which('sh') is not None, shutil.which('no-such-program-x'), shutil.which('sh', path=d))
    print('disk_usage', shutil.disk_usage(d).total > 0)
    print('terminal size', shutil.get_terminal_size((77, 22)))

    m = tempfile.mkdtemp(dir=d, prefix='pre', suffix='suf')
    print('mkdtemp', os.path.basename(m).startswith('pre'), m.endswith('suf'), os.path.isdir(m))
    fd, name = tempfile.mkstemp(dir=d, suffix='.dat')
    os.write(fd, b'data')
    os.close(fd)
    print('mkstemp', name.endswith('.dat'), open(name, 'rb').read(), stat.filemode(os.stat(name).st_mode))
    print('gettempdir', os.path.isdir(tempfile.gettempdir()), isinstance(tempfile.gettempprefix(), str))
    b = tempfile.mkdtemp(dir=os.fsencode(d))
    print('bytes mkdtemp', type(b).__name__, os.path.isdir(b))
print('cleaned up', os.path.exists(d))
