# open(): opener=, closefd, newline modes, encodings and their errors,
# closed-file errors, IncrementalNewlineDecoder, text_encoding.
import io
import os
import tempfile

d = tempfile.mkdtemp()
p = os.path.join(d, "t.txt")
calls = []


def opener(path, flags):
    calls.append((os.path.basename(path), bool(flags & os.O_WRONLY)))
    return os.open(path, flags, 0o600)


with open(p, "w", opener=opener) as f:
    f.write("a\r\nb\rc\nd")
with open(p, "r", opener=opener) as f:
    print(repr(f.read()), f.newlines)
print(calls)
try:
    open(p, opener=lambda path, flags: -1)
except ValueError as e:
    print("ValueError", e)

for nl in (None, "", "\n", "\r", "\r\n"):
    with open(p, newline=nl) as f:
        print(repr(nl), [line for line in f], f.newlines)
for nl in (None, "", "\n", "\r", "\r\n"):
    with open(p, "w", newline=nl) as f:
        f.write("x\ny\r\nz\r")
    with open(p, "rb") as f:
        print(repr(nl), f.read())
try:
    open(p, newline="\t")
except ValueError as e:
    print("ValueError", e)

# encodings
with open(p, "w", encoding="latin-1") as f:
    print(f.encoding, f.write("café ñ\n"))
with open(p, "rb") as f:
    print(f.read())
with open(p, encoding="latin-1") as f:
    print(f.read(), f.encoding, f.errors)
with open(p, encoding="utf-8") as f:
    try:
        f.read()
    except UnicodeDecodeError as e:
        print("UnicodeDecodeError", e.reason, e.start)
with open(p, encoding="utf-8", errors="replace") as f:
    print(repr(f.read()), f.errors)
with open(p, encoding="ascii", errors="surrogateescape") as f:
    print(ascii(f.read()))
with open(p, "w", encoding="ascii") as f:
    try:
        f.write("é")
    except UnicodeEncodeError as e:
        print("UnicodeEncodeError", e.reason)
with open(p, "w", encoding="ascii", errors="xmlcharrefreplace") as f:
    f.write("é€\n")
with open(p, "w", encoding="utf-16") as f:
    f.write("two\nlines\n")
with open(p, encoding="utf-16") as f:
    print(f.readlines())
with open(p, "a", encoding="utf-16") as f:
    f.write("more\n")
with open(p, "rb") as f:
    print(f.read().count(b"\xff\xfe"))
try:
    open(p, encoding="no-such-codec")
except LookupError as e:
    print("LookupError", e)
try:
    open(p, "rb", encoding="utf-8")
except ValueError as e:
    print("ValueError", e)
try:
    open(p, "rt", buffering=0)
except ValueError as e:
    print("ValueError", e)
try:
    open(p, "rw")
except ValueError as e:
    print("ValueError", e)

# closed files
for mode in ("r", "rb", "w", "wb"):
    f = open(p, mode, buffering=-1 if "b" not in mode else 0 if mode == "wb" else -1)
    f.close()
    f.close()
    for op in ("read", "write", "readline", "seek", "tell", "fileno", "flush", "__iter__", "__enter__"):
        try:
            m = getattr(f, op)
            if op == "write":
                m("x" if "b" not in mode else b"x")
            elif op == "seek":
                m(0)
            else:
                m()
            print(mode, op, "ok")
        except (ValueError, io.UnsupportedOperation, AttributeError) as e:
            print(mode, op, type(e).__name__, e)
with open(p, "w") as f:
    for op in ("read", "readline"):
        try:
            getattr(f, op)()
        except io.UnsupportedOperation as e:
            print(op, "UnsupportedOperation", e)
with open(p, "rb") as f:
    try:
        f.write(b"x")
    except io.UnsupportedOperation as e:
        print("write", "UnsupportedOperation", e)

# closefd
fd = os.open(p, os.O_RDONLY)
with open(fd, closefd=False) as f:
    print(f.name == fd, f.closed)
os.close(fd)
try:
    open(p, closefd=False)
except ValueError as e:
    print("ValueError", e)

# line buffering, reconfigure, attributes
with open(p, "w", buffering=1) as f:
    print(f.line_buffering, f.write_through, f.mode, f.buffer.mode, f.buffer.raw.mode)
    f.reconfigure(line_buffering=False)
    print(f.line_buffering)
    f.reconfigure(encoding="latin-1")
    f.write("é")
    print(f.encoding)
with open(p, "rb") as f:
    print(f.read())

# IncrementalNewlineDecoder (doctest's use: no decoder, translate)
dec = io.IncrementalNewlineDecoder(None, translate=True)
print(repr(dec.decode("a\r")), repr(dec.decode("\nb\r")), repr(dec.decode("", final=True)), dec.newlines)
dec = io.IncrementalNewlineDecoder(None, translate=False)
print(repr(dec.decode("x\r\ny\rz\n")), dec.newlines, dec.getstate())
dec.reset()
print(dec.newlines)
import codecs
dec = io.IncrementalNewlineDecoder(codecs.getincrementaldecoder("utf-8")(), translate=True)
out = "".join(dec.decode(bytes([b])) for b in "é\r\nü\r".encode()) + dec.decode(b"", final=True)
print(repr(out), dec.newlines)
print(io.text_encoding(None), io.text_encoding("ascii"))
with io.open_code(p) as f:
    print(type(f).__name__)
print(io.DEFAULT_BUFFER_SIZE, issubclass(io.UnsupportedOperation, OSError),
      issubclass(io.UnsupportedOperation, ValueError), io.BlockingIOError is BlockingIOError)
for name in os.listdir(d):
    os.remove(os.path.join(d, name))
os.rmdir(d)

# the usual way to change stdout's encoding: detach and wrap again
import sys
old = sys.stdout
sys.stdout = io.TextIOWrapper(old.detach(), encoding="ascii", errors="backslashreplace", line_buffering=True)
print("after detach: é", type(sys.stdout).__name__, sys.stdout.encoding)
try:
    old.write("x")
except ValueError as e:
    print("ValueError", e)
