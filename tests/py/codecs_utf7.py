# UTF-7 (_codecs.utf_7_encode / utf_7_decode) against CPython: which characters are direct,
# shift sequences and '+-', surrogate pairs, every error and its span (a recording handler),
# the built-in handlers, incremental decoding split at every byte, stream reader/writer,
# and random byte strings of UTF-7's alphabet.
import codecs, io, random

def show(label, f):
    try:
        print(label, repr(f()))
    except Exception as e:
        print(label, type(e).__name__, e)

seen = []
def record(exc):
    seen.append((type(exc).__name__, exc.encoding, exc.start, exc.end, exc.reason, bytes(exc.object)))
    return ("<%d:%d>" % (exc.start, exc.end), exc.end)
codecs.register_error("utf7test.record", record)
def back_one(exc):
    # resume before the end of the error: the decoder must go on from there
    return ("#", max(exc.start + 1, exc.end - 1))
codecs.register_error("utf7test.back", back_one)
# a negative position counts from the end of the input
codecs.register_error("utf7test.neg", lambda exc: ("N", exc.end - len(exc.object) if exc.end < len(exc.object) else exc.end))
codecs.register_error("utf7test.bad", lambda exc: ("x",))
codecs.register_error("utf7test.far", lambda exc: ("x", 10**6))

texts = ["", "a", "+", "a+b", "A+B-C", "Hi Mom -\u263a-!", "\u65e5\u672c\u8a9e", "~\\", "\x00\x01\x7f",
         "a-b", "\u20ac-", "\u20acA", "\u20ac ", "\U0001F600", "x\U0001F600y", "\ud800", "\udc00a",
         "\ud800\udc00", "+-+-", "free: \t\r\n!\"#$%&*;<=>@[]^_`{|}", "'(),-./:?", "\u00e9t\u00e9",
         "1 + 1 = 2", "\uffff\u0100\u0080"]
for t in texts:
    e = t.encode("utf-7")
    print(repr(t), e, repr(e.decode("utf-7")), codecs.utf_7_encode(t))
for n in range(0x10000, 0x10000 + 3):
    print(chr(n).encode("utf-7"))
print(bytes(range(128)).decode("utf-7", "utf7test.record"))
print(''.join(map(chr, range(256))).encode("utf-7"))

bad = [b"+", b"+-", b"+A", b"+AA", b"+AAA", b"+AAA-", b"+AGE-", b"+AGE", b"+AGEA-", b"+2D3eAA-", b"+2D3e-",
       b"+2D0-", b"+2D3eAA", b"+2D0Aew-", b"a\x80b", b"\xff", b"+!", b"+ a", b"+\x80", b"+ZeV\x80",
       b"+ZeVn-x", b"+ZeVnLA", b"+ZeVnLA-+ZeVnLA", b"+ZeV-", b"+ZeVn+", b"+2D3eAA!", b"+2D3e!", b"+2D0!",
       b"+2D0 x", b"+2D0\x80", b"+/v8-", b"+//8-", b"+AB", b"+ABC-", b"-+AGE-x-", b"+AAAA", b"+AAAAAA-",
       b"abc+", b"+2D3eAAAAB-", b"+2D3eAA2D3eAA-"]
for data in bad:
    for errors in ("strict", "ignore", "replace", "backslashreplace", "surrogateescape", "utf7test.record",
                   "utf7test.back", "utf7test.neg", "utf7test.bad", "utf7test.far"):
        show("%r %s" % (data, errors), lambda: data.decode("utf-7", errors))
    for final in (False, True):
        show("  final=%s" % final, lambda: codecs.utf_7_decode(data, "utf7test.record", final))
print(len(seen), seen[:40])
show("no errors arg", lambda: codecs.utf_7_decode(b"+ZeV"))
show("bad errors type", lambda: codecs.utf_7_decode(b"a", 3))
show("bad data", lambda: codecs.utf_7_decode("a"))
show("bad str", lambda: codecs.utf_7_encode(b"a"))
show("unknown handler", lambda: b"\x80".decode("utf-7", "no-such-handler"))
show("bytearray", lambda: codecs.utf_7_decode(bytearray(b"+ZeV-"), None, True))
show("memoryview", lambda: codecs.utf_7_decode(memoryview(b"a+ZeV-"), None, True))
try:
    b"ab+AGE!".decode("utf-7")
except UnicodeDecodeError as e:
    print("strict:", e, e.start, e.end, e.reason)

# incremental decoding split at every byte, and one byte at a time
samples = [t.encode("utf-7") for t in texts] + [b"+ZeVnLA-+AGE-x", b"a+2D3eAA-b+2D3e-", b"+AGEA-", b"+AAA"]
for data in samples:
    whole = data.decode("utf-7", "replace")
    for cut in range(len(data) + 1):
        d = codecs.getincrementaldecoder("utf-7")("replace")
        got = d.decode(data[:cut]) + d.decode(data[cut:], final=True)
        if got != whole:
            print("split differs", data, cut, repr(got), repr(whole))
    d = codecs.getincrementaldecoder("utf-7")("replace")
    parts = [d.decode(data[i:i + 1]) for i in range(len(data))] + [d.decode(b"", final=True)]
    print(data, parts)
    print(data, [codecs.utf_7_decode(data[:k], "replace", False) for k in range(len(data) + 1)])

enc = codecs.getincrementalencoder("utf-7")()
print([enc.encode(t) for t in texts], enc.encode("", final=True))
buf = io.BytesIO()
w = codecs.getwriter("utf-7")(buf)
for t in texts:
    w.write(t)
print(buf.getvalue())
r = codecs.getreader("utf-7")(io.BytesIO(buf.getvalue()))
print(repr(r.read(5)), repr(r.read()))
r = codecs.getreader("utf-7")(io.BytesIO(b"line +ZeVnLA-\nnext+AGE-\n+2D3eAA-"))
print(r.readlines())

# random round trips and random UTF-7-ish bytes
rnd = random.Random(7)
alphabet = [chr(c) for c in range(0, 200)] + ["\u20ac", "\u65e5", "\ud800", "\udfff", "\U00010000", "\U0010ffff", "+", "-"]
for k in range(300):
    t = "".join(rnd.choice(alphabet) for _ in range(rnd.randrange(12)))
    e = t.encode("utf-7")
    assert e.decode("utf-7", "surrogatepass" if False else "strict") == t or "\ud800" in t or "\udfff" in t, (t, e)
    print(e, repr(e.decode("utf-7", "replace")))
letters = b"+-AZaz09/!\x80 ~ABCDEFGH2D3e"
for k in range(400):
    data = bytes(rnd.choice(letters) for _ in range(rnd.randrange(10)))
    for final in (False, True):
        seen.clear()
        show("%r %s" % (data, final), lambda: (codecs.utf_7_decode(data, "utf7test.record", final), seen[:]))
