# io (lib/io.py) with the C StringIO and BytesIO; contextlib.redirect_stdout into a StringIO.
import contextlib
import io
import sys

s = io.StringIO("line1\nline2\nlast")
print(s.read(3), repr(s.readline()), s.tell(), s.readlines(), repr(s.read()), s.tell())
s.seek(0)
print(list(s), s.seek(0, 2), s.write("+more"), repr(s.getvalue()))
s.seek(2)
s.write("XY")
print(repr(s.getvalue()), s.tell(), s.truncate(), repr(s.getvalue()), s.truncate(3), repr(s.getvalue()))
s.seek(10)
s.write("!")
print(repr(s.getvalue()))
t = io.StringIO()
for i in range(1000):
    t.write(str(i))
print(len(t.getvalue()), t.getvalue()[-10:], t.tell())
t.seek(0)
print(t.read(5), t.read(-1)[:5], repr(t.read(10)))
u = io.StringIO("a\r\nb\rc\n", newline=None)
print(repr(u.getvalue()), u.newlines, list(u))
v = io.StringIO(newline="")
v.write("a\r\nb\rc\nd")
v.seek(0)
print(list(v))
w = io.StringIO(newline="\r\n")
w.write("x\ny\n")
print(repr(w.getvalue()))
print(s.readable(), s.writable(), s.seekable(), s.isatty(), s.closed, s.encoding, s.line_buffering)
with io.StringIO("ctx") as c:
    print(c.read())
print(c.closed)
for op in (lambda: c.read(), lambda: c.getvalue(), lambda: c.write("x"), lambda: io.StringIO().write(1),
           lambda: io.StringIO().seek(-1), lambda: io.StringIO().seek(1, 1), lambda: io.StringIO(newline="x"),
           lambda: io.StringIO(5), lambda: io.StringIO().fileno()):
    try:
        op()
    except (ValueError, TypeError, OSError) as e:
        print(type(e).__name__, e)

b = io.BytesIO(b"abc\ndef\n")
print(b.read(2), b.readline(), b.tell(), list(b), b.seek(-3, 2), b.read())
b.seek(10)
print(b.write(b"Z"), b.getvalue(), b.seek(1), b.write(bytearray(b"12")), b.getvalue())
print(b.truncate(4), b.getvalue(), b.tell(), b.getbuffer().tobytes(), b.read1(2) if False else "")
buf = bytearray(3)
b.seek(0)
print(b.readinto(buf), buf, b.readlines())
b.close()
try:
    b.read()
except ValueError as e:
    print("ValueError", e)


class Capture(io.StringIO):
    def __init__(self):
        super().__init__()
        self.label = "captured"


cap = Capture()
with contextlib.redirect_stdout(cap):
    print("hello", 42)
    print("world")
print(cap.label, repr(cap.getvalue()), isinstance(cap, io.TextIOBase), isinstance(cap, io.IOBase))
print(isinstance(io.BytesIO(), io.BufferedIOBase), isinstance(sys.stdout, io.TextIOBase),
      isinstance(sys.stdout, io.BufferedIOBase), isinstance(sys.stdout, io.IOBase), io.text_encoding("utf-8"))


class Raw(io.RawIOBase):
    def __init__(self, data):
        self.data = data

    def readable(self):
        return True

    def readinto(self, b):
        n = min(len(b), len(self.data))
        b[:n] = self.data[:n]
        self.data = self.data[n:]
        return n


r = Raw(b"raw bytes\nline two\n")
print(r.read(3), r.readline(), r.readall(), r.closed)
with r:
    pass
print(r.closed, io.SEEK_END, io.DEFAULT_BUFFER_SIZE > 0)
# closed streams: each method's message (IOBase's have the period, StringIO's own do not)
for cls in (io.StringIO, io.BytesIO):
    f = cls()
    f.close()
    for name, args in (("read", ()), ("readline", ()), ("tell", ()), ("truncate", ()), ("readlines", ()),
                       ("writelines", ([],)), ("readable", ()), ("isatty", ()), ("__next__", ())):
        try:
            getattr(f, name)(*args)
        except ValueError as e:
            print(cls.__name__, name, e)
# seek: whence, negative and relative offsets, for both types
for f in (io.StringIO("hello"), io.BytesIO(b"hello")):
    print(f.seek(2), f.seek(0, 1), f.seek(0, 2), f.seek(10), f.tell())
    for args in ((-1,), (1, 3), (1, 1), (-2, 2), (-10, 1)):
        try:
            print(args, f.seek(*args))
        except (ValueError, OSError) as e:
            print(args, type(e).__name__, e)
