# Standard modules that build on _io's classes: tarfile (subclasses
# BufferedReader), tempfile, doctest (IncrementalNewlineDecoder), tokenize
# (TextIOWrapper over a buffer), in memory or in a temporary directory.
# (zipfile, gzip and NamedTemporaryFile wait for zlib and os.PathLike.)
import io
import os
import tempfile

try:
    import tarfile
except ImportError as e:
    tarfile = None
    print("no tarfile")
if tarfile:
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w") as tf:
        for name, data in (("a.txt", b"alpha\nbeta\n"), ("dir/b.bin", bytes(range(256)) * 40)):
            info = tarfile.TarInfo(name)
            info.size = len(data)
            info.mtime = 0
            tf.addfile(info, io.BytesIO(data))
    buf.seek(0)
    with tarfile.open(fileobj=buf) as tf:
        print(tf.getnames())
        f = tf.extractfile("a.txt")
        print(type(f).__name__, isinstance(f, io.BufferedReader), f.readline(), f.read())
        f = tf.extractfile("dir/b.bin")
        print(len(f.read()), f.seek(10), f.read(3), f.tell())

with tempfile.TemporaryFile() as f:
    f.write(b"abc")
    f.seek(0)
    print(f.read())
with tempfile.SpooledTemporaryFile(max_size=10, mode="w+") as f:
    f.write("small")
    f.write(" and now larger than ten")
    f.seek(0)
    print(f.read())

import doctest


def sample():
    """
    >>> print("a\\nb")
    a
    b
    >>> 1 + 1
    2
    """


print(doctest.run_docstring_examples(sample, {}, name="sample"))
import tokenize
d = tempfile.mkdtemp()
if True:
    p = os.path.join(d, "m.py")
    with open(p, "w", encoding="latin-1") as f:
        f.write("# -*- coding: latin-1 -*-\ns = 'é'\n")
    with tokenize.open(p) as f:
        print(f.encoding, f.read().splitlines()[1])
for name in os.listdir(d):
    os.remove(os.path.join(d, name))
os.rmdir(d)
