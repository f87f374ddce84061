# TextIOWrapper tell()/seek() cookies: tell after readline and seek back
# gives the same lines, in UTF-8 (C layer), other encodings and over BytesIO.
import io
import os
import tempfile

text = "first line\nsecond: é ü ж\r\nthird\rfourth 😀\nlast"
d = tempfile.mkdtemp()
p = os.path.join(d, "s.txt")


def roundtrip(f):
    marks = []
    while True:
        pos = f.tell()
        line = f.readline()
        if not line:
            break
        marks.append((pos, line))
    out = []
    for pos, line in reversed(marks):
        f.seek(pos)
        out.append(f.readline() == line)
    f.seek(0)
    return [m[1] for m in marks], all(out)


for enc in ("utf-8", "latin-1", "utf-16", "utf-8-sig", "cp1252"):
    data = text if enc not in ("latin-1", "cp1252") else text.replace("ж", "z").replace("😀", ":)")
    for nl in (None, "", "\n"):
        with open(p, "w", encoding=enc, newline="") as f:
            f.write(data)
        with open(p, encoding=enc, newline=nl) as f:
            print(enc, repr(nl), roundtrip(f))
            f.seek(0)
            print(repr(f.read(7)), f.tell() > 0, repr(f.read(3)))
            f.seek(0, 2)
            print(f.read() == "", f.seek(0, 1) == f.tell())

buf = io.BytesIO(text.encode("utf-8"))
t = io.TextIOWrapper(buf, encoding="utf-8")
print(roundtrip(t))
t.seek(0)
t.readline()
pos = t.tell()
t.write("X")
t.seek(pos)
print(repr(t.readline()))
try:
    t.seek(3, 1)
except io.UnsupportedOperation as e:
    print("UnsupportedOperation", e)
try:
    t.seek(-1)
except ValueError as e:
    print("ValueError", e)

# append and read back in r+ mode
with open(p, "w+", encoding="utf-8") as f:
    f.write("abc\ndef\n")
    f.seek(0)
    print(f.readline(), f.tell())
    f.seek(0, 2)
    f.write("ghi\n")
    f.seek(0)
    print(f.read().split())
    print(f.truncate(4), f.tell())
with open(p) as f:
    print(repr(f.read()))
# binary seek/tell
with open(p, "r+b") as f:
    print(f.seek(-2, 2), f.read(), f.tell(), f.seek(1), f.read(1), f.seek(1, 1), f.read(1))
for name in os.listdir(d):
    os.remove(os.path.join(d, name))
os.rmdir(d)
