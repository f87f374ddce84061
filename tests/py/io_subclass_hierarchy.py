# _io's class hierarchy under CPython's io.py: every class subclassed from
# Python, with Python overrides that the C methods call.
import io
import os
import tempfile

print([c.__name__ for c in io.FileIO.__mro__])
print([c.__name__ for c in io.BufferedReader.__mro__])
print([c.__name__ for c in io.TextIOWrapper.__mro__])
print(io.FileIO.__module__, io.TextIOWrapper.__module__, io.IncrementalNewlineDecoder.__module__)
for cls in (io.FileIO, io.BufferedReader, io.BufferedWriter, io.BufferedRandom, io.BufferedRWPair,
            io.TextIOWrapper, io.BytesIO, io.StringIO):
    print(cls.__name__, issubclass(cls, io.IOBase), issubclass(cls, io.RawIOBase),
          issubclass(cls, io.BufferedIOBase), issubclass(cls, io.TextIOBase))


class Raw(io.RawIOBase):
    """A raw stream over bytes, with readinto only."""

    def __init__(self, data):
        self.data = data
        self.pos = 0
        self.calls = 0

    def readable(self):
        return True

    def readinto(self, b):
        self.calls += 1
        n = min(len(b), len(self.data) - self.pos, 5)
        b[:n] = self.data[self.pos:self.pos + n]
        self.pos += n
        return n


r = Raw(b"one\ntwo\nthree")
print(r.read(2), r.read(), r.read(), r.closed)
r = Raw(b"one\ntwo\nthree")
print(r.readline(), list(r), r.readall())
r.close()
print(r.closed)
try:
    r.read(1)
except ValueError as e:
    print("ValueError", e)

b = io.BufferedReader(Raw(b"alpha\nbeta\ngamma\n" * 3), buffer_size=7)
print(b.peek(3)[:3], b.read1(4), b.readline(), b.read(8), b.readlines())
print(b.raw.calls > 3, b.closed, b.readable(), b.writable())
try:
    b.write(b"x")
except io.UnsupportedOperation as e:
    print("UnsupportedOperation", e)
b.close()
print(b.closed, b.raw.closed)


class Reader(io.BufferedReader):
    def __init__(self, raw):
        super().__init__(raw)
        self.lines = 0

    def readline(self, size=-1):
        self.lines += 1
        return super().readline(size).upper()


rd = Reader(Raw(b"x\ny\nz\n"))
print(list(rd), rd.lines, type(rd).__name__, isinstance(rd, io.BufferedIOBase))
print(repr(Reader(Raw(b""))).startswith("<Reader"))

# a text wrapper over the Python raw stream, through a BufferedReader
t = io.TextIOWrapper(io.BufferedReader(Raw("héllo\nwörld\n".encode())), encoding="utf-8")
print(t.readline(), t.read(), t.encoding, t.readable(), t.writable())


class Text(io.TextIOWrapper):
    def write(self, s):
        return super().write(s.replace("a", "A"))


d = tempfile.mkdtemp()
if True:
    p = os.path.join(d, "f.txt")
    with open(p, "w") as f:
        f.write("banana\n")
    with Text(open(p, "ab"), encoding="utf-8") as t:
        print(t.write("papaya\n"), type(t).__name__)
    print(t.closed)
    with open(p) as f:
        print(f.read().split())
    # FileIO subclass
    class Counting(io.FileIO):
        def read(self, n=-1):
            data = super().read(n)
            print("read", n, len(data))
            return data
    with Counting(p) as raw:
        print(raw.readline(), raw.name == p, raw.mode, raw.closefd)
    print(raw.closed)
    # BufferedWriter subclass: close calls the override of flush
    class W(io.BufferedWriter):
        def flush(self):
            print("flush called")
            super().flush()
    w = W(io.FileIO(p, "w"))
    w.write(b"data")
    w.close()
    with open(p, "rb") as f:
        print(f.read(), type(f).__name__, type(f.raw).__name__)
    with open(p, "r+b") as f:
        print(type(f).__name__, f.read(2), f.write(b"TA"), f.seek(0), f.read())
    with open(p, "rb", buffering=0) as f:
        print(type(f).__name__, f.read(2), f.readall())


# IOBase subclass from scratch: readline calls read, iteration calls readline
class Lines(io.IOBase):
    def __init__(self, text):
        self.text = text
        self.pos = 0

    def readable(self):
        return True

    def read(self, n=-1):
        data = self.text[self.pos:self.pos + n]
        self.pos += len(data)
        return data


print(list(Lines(b"a\nbb\nccc")), Lines(b"xy\n").readlines())
with Lines(b"") as ln:
    print(ln.closed)
print(ln.closed)


class Flushing(io.IOBase):
    def flush(self):
        print("flush before close")


fl = Flushing()
fl.close()
fl.close()
try:
    fl.flush()
    iter(fl)
except ValueError as e:
    print("ValueError", e)

# BufferedRWPair and BytesIO subclasses
pair = io.BufferedRWPair(io.BytesIO(b"in"), io.BytesIO())
print(pair.read(), pair.write(b"out"), pair.readable(), pair.writable(), pair.closed)


class B(io.BytesIO):
    pass


bb = B(b"12\n34\n")
print(list(bb), isinstance(bb, io.BufferedIOBase))
tw = io.TextIOWrapper(B(), encoding="ascii", newline="\r\n")
tw.write("a\nb\n")
tw.flush()
print(tw.buffer.getvalue(), repr(tw))
print(tw.detach().getvalue())
try:
    tw.write("x")
except ValueError as e:
    print("ValueError", e)
for name in os.listdir(d):
    os.remove(os.path.join(d, name))
os.rmdir(d)
