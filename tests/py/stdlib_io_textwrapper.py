# lib/io.py's TextIOWrapper over binary buffers (files opened "rb", BytesIO):
# universal newlines, newline="", read/readline/tell/seek, writes with
# newline translation; tmpy's text files count as TextIOWrappers.
import io
import os
import sys

path = "/tmp/tmpy_textwrapper_%d.txt" % os.getpid()
with open(path, "wb") as f:
    f.write("# -*- coding: utf-8 -*-\nline \u00e9 2\r\nline 3\rlast".encode())
b = open(path, "rb")
t = io.TextIOWrapper(b, "utf-8")
print(repr(t.readline()), repr(t.readline()), t.tell(), repr(t.read(3)), repr(t.read()), repr(t.readline()))
t.seek(0)
print(list(t))
t.close()
print(t.closed, b.closed, isinstance(t, io.TextIOBase), isinstance(sys.stdout, io.TextIOWrapper))
t = io.TextIOWrapper(open(path, "rb"), newline="")
print(list(t), t.encoding, t.errors, t.line_buffering)
t.close()
os.remove(path)
w = io.TextIOWrapper(io.BytesIO(), "latin-1", newline="\r\n")
print(w.write("a\nb \u00e9"), w.encoding)
w.flush()
print(w.buffer.getvalue())
r = io.TextIOWrapper(io.BytesIO("x\u20acy\nz".encode("utf-16")), "utf-16")
print(repr(r.read(2)), repr(r.readline()), repr(r.read()))
for bad in (lambda: io.TextIOWrapper(io.BytesIO(), "no-such-codec"), lambda: io.TextIOWrapper(io.BytesIO(), newline="x"),
            lambda: io.TextIOWrapper(io.BytesIO()).write(b"x")):
    try:
        bad()
    except (LookupError, ValueError, TypeError) as e:
        print(type(e).__name__, e)
# seek(0, SEEK_CUR) stays where the reader is, though the wrapper has read ahead
t = io.TextIOWrapper(io.BytesIO(b"abcdef\nghij\n"), encoding="utf-8")
print(repr(t.read(2)), t.seek(0, 1), repr(t.read(2)), t.tell(), t.seek(0, 2), repr(t.read()))
