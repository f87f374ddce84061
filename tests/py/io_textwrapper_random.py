# TextIOWrapper over a BytesIO (the Python layer): random reads, readlines
# with and without a size, tell() and seek() back to earlier cookies, in
# several encodings and newline modes, with small chunk sizes so that
# characters and \r\n pairs straddle chunks. Compared with CPython.
import io, random
random.seed(5)
pieces = ["a", "é", "\n", "\r", "\r\n", "xyz", "€", "😀", " "]
out = []
for trial in range(300):
    text = "".join(random.choice(pieces) for _ in range(random.randint(0, 40)))
    enc = random.choice(["utf-8", "utf-16", "latin-1" , "utf-8-sig"])
    if enc == "latin-1":
        text = text.encode("latin-1", "replace").decode("latin-1")
    nl = random.choice([None, "", "\n", "\r", "\r\n"])
    raw = io.BytesIO(text.encode(enc))
    t = io.TextIOWrapper(raw, encoding=enc, newline=nl)
    t._CHUNK_SIZE = random.choice([1, 2, 3, 5, 8, 64])
    res = []
    marks = []
    for step in range(12):
        op = random.choice(["readline", "read", "tell", "seekmark", "readsize"])
        try:
            if op == "readline":
                res.append(t.readline())
            elif op == "readsize":
                res.append(t.readline(random.randint(0, 5)))
            elif op == "read":
                res.append(t.read(random.randint(0, 6)))
            elif op == "tell":
                marks.append(t.tell())
                res.append("T")
            elif op == "seekmark" and marks:
                t.seek(random.choice(marks))
                res.append("S")
        except Exception as e:
            res.append(type(e).__name__)
    if "T" not in res:
        res.append(t.newlines)   # (tell() re-decodes: CPython's newlines then depend on how much)
    out.append((trial, res))
for o in out:
    print(o)
