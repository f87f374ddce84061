# seek(), tell() and truncate() of buffered binary and text files, many per
# transaction: the descriptor's offset (and a file's length) is kernel state
# an aborted transaction cannot take back, so a seek or truncate whose
# transaction aborted must not be seen by the retry (a relative seek would
# move twice, a tell() between would read the new offset against the old
# buffer). Compared with CPython under every build and abort injection.
import os
import tempfile

d = tempfile.mkdtemp()
p = os.path.join(d, "s.bin")
data = bytes((i * 7 + 3) % 251 for i in range(20000))
with open(p, "wb") as f:
    f.write(data)

out = []
with open(p, "rb") as f:
    for i in range(400):
        k = (i * 37) % 97
        f.seek(k, 1 if i % 3 else 0)           # relative and absolute
        a = f.tell()
        b = f.read(k % 13)
        c = f.tell()
        if c > 19000:
            f.seek(-(i % 50) - 1, 2)            # from the end
        out.append((a, len(b), b[:1], c, f.tell()))
print(len(out), out[:5], out[-5:])
print(sum(x[0] + x[3] + x[4] for x in out))

# seeks and tells with no read between (no read makes the transaction
# inevitable): an aborted seek left behind shows in the retried tell()
with open(p, "rb") as f:
    acc = []
    for i in range(3000):
        acc.append(f.tell())
        if i % 2:
            f.seek(1, 1)
        else:
            f.seek((i * 13) % 1000)
print(len(acc), sum(acc), acc[:6], acc[-6:])

# text: tell() cookies and seeks back to them, over a file with \r\n
q = os.path.join(d, "t.txt")
with open(q, "w", encoding="utf-8", newline="") as f:
    for i in range(600):
        f.write("line %d é\r\n" % i if i % 4 else "x%d\n" % i)
marks = []
res = []
with open(q, encoding="utf-8") as f:
    for i in range(300):
        t = f.tell()
        marks.append(t)
        res.append(len(f.readline()))
        if i % 7 == 6:
            f.seek(marks[(i * 5) % len(marks)])
            res.append(f.tell())
print(len(res), sum(res), min(res), res[-6:])

# truncate at the current position, then relative reads and writes
r = os.path.join(d, "w.bin")
with open(r, "w+b") as f:
    f.write(b"0123456789" * 300)
    sizes = []
    for i in range(120):
        f.seek(3000 - i * 20)
        f.truncate()
        f.seek(-5, 2)
        f.seek(2, 1)
        sizes.append((f.tell(), f.read()))
        f.seek(0, 2)
        f.write(b"ab")
        sizes.append(f.tell())
print(sizes[:4], sizes[-4:], os.path.getsize(r))
os.remove(p)
os.remove(q)
os.remove(r)
os.rmdir(d)
