# .pyc files as py_compile writes them and importlib's SourceFileLoader reads
# them (__pycache__/NAME.<cache_tag>.pyc): the loader runs the cached code
# while the source's mtime and size match, and recompiles when they do not.
import importlib.util
import os
import py_compile
import shutil
import sys
import tempfile

d = tempfile.mkdtemp()
try:
    src = os.path.join(d, "pycmod.py")
    with open(src, "w") as f:
        f.write("def f(x):\n    return x * 2\nVALUE = f(21)\n")
    os.utime(src, (1_000_000_000, 1_000_000_000))
    cached = py_compile.compile(src, doraise=True)
    print(cached == importlib.util.cache_from_source(src),
          os.path.basename(cached) == "pycmod." + sys.implementation.cache_tag + ".pyc")
    with open(cached, "rb") as f:
        header = f.read(16)
    print(header[:4] == importlib.util.MAGIC_NUMBER, importlib.util.MAGIC_NUMBER[2:])
    print(importlib.util.source_from_cache(cached) == src)

    def load():
        spec = importlib.util.spec_from_file_location("pycmod", src)
        m = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(m)
        return m

    m = load()
    print(m.VALUE, m.__cached__ == cached)
    # same size and mtime, other text: the cached code runs (as CPython's loader decides)
    with open(src, "w") as f:
        f.write("def f(x):\n    return x * 3\nVALUE = f(21)\n")
    os.utime(src, (1_000_000_000, 1_000_000_000))
    print(load().VALUE)
    # another mtime: recompiled from the source and the cache rewritten
    os.utime(src, (1_000_000_100, 1_000_000_100))
    print(load().VALUE)
    # a cache with another magic number is ignored
    with open(cached, "r+b") as f:
        f.write(b"\x00\x00\r\n")
    with open(src, "w") as f:
        f.write("def f(x):\n    return x * 4\nVALUE = f(21)\n")
    os.utime(src, (1_000_000_100, 1_000_000_100))
    print(load().VALUE)
finally:
    shutil.rmtree(d)
