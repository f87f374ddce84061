# The CJK codecs (_multibytecodec over _codecs_jp/kr/cn/tw/hk/iso2022; hz and ISO-2022, stateful) against CPython: every code point
# below U+10000 and a sample above encoded, every 1- and 2-byte sequence decoded (as digests,
# with the first differences shown), round trips of texts, each error handler with its spans,
# incremental encode/decode split at every position, getstate/setstate, stream reader/writer.
import codecs, io, zlib

NAMES = ["shift_jis", "cp932", "euc_jp", "euc_jis_2004", "euc_jisx0213", "shift_jis_2004", "shift_jisx0213",
         "euc_kr", "cp949", "johab", "gb2312", "gbk", "gb18030", "hz", "big5", "cp950", "big5hkscs", "iso2022_jp", "iso2022_kr", "iso2022_jp_1", "iso2022_jp_ext", "iso2022_jp_2",
         "iso2022_jp_2004", "iso2022_jp_3"]
TEXTS = ["", "abc", "日本語のテキスト", "ｶﾀｶﾅ", "한국어 텍스트", "中文文本，简体", "繁體中文", "\\~¥‾",
         "か\u309aけ\u309a", "\u00e6\u0300", "𠀋𡈽", "€", "a\u3000b", "Ω≠∑"]

spans = []
def record(exc):
    spans.append((type(exc).__name__, exc.encoding, exc.start, exc.end, exc.reason))
    return ("<%d:%d>" % (exc.start, exc.end), exc.end)
codecs.register_error("cjktest.record", record)
codecs.register_error("cjktest.bytes", lambda exc: (b"##", exc.end))
codecs.register_error("cjktest.badrepl", lambda exc: ("\U0010fffd", exc.end))
codecs.register_error("cjktest.bad", lambda exc: 42)
codecs.register_error("cjktest.far", lambda exc: ("", 10 ** 6))

ALL_CHARS = "".join(map(chr, list(range(0xD800)) + list(range(0xE000, 0x10000)) + list(range(0x10000, 0x110000, 17))))
TWO_BYTE = b"".join([bytes([a]) + b"\n" for a in range(256)] +
                    [bytes([a, b]) + b"\n" for a in range(0x80, 0x100) for b in range(256)])

def show(label, f):
    try:
        print(label, repr(f()))
    except Exception as e:
        print(label, type(e).__name__, e)

for name in NAMES:
    # every code point below U+10000 and every 17th above, in one string ('replace': a digest
    # of the bytes), and the count of those that encode alone
    text = ALL_CHARS
    data = text.encode(name, "replace")
    print(name, "encode", len(data), zlib.crc32(data), data.count(b"?"))
    # every 1- and 2-byte sequence, each followed by a newline, in one input
    data = TWO_BYTE.decode(name, "replace")
    print(name, "decode", len(data), zlib.crc32(data.encode("utf-8")))
    # the first 6,752 sequences (every single byte, then leads 0x80-0x99): the spans of the
    # handler's calls; the mapping of every sequence is checked by 'replace' above (the whole
    # input here was a third of the program's time, most of it in move mode's collections)
    data = TWO_BYTE[:20000].decode(name, "backslashreplace")
    print(name, "decode backslashreplace", len(data), zlib.crc32(data.encode("utf-8")))
    spans.clear()
    TWO_BYTE[:3000].decode(name, "cjktest.record")
    print(name, "decode spans", len(spans), zlib.crc32(repr(spans).encode()), spans[:6])
    spans.clear()
    ALL_CHARS[0x2000:0x3400].encode(name, "cjktest.record")
    print(name, "encode spans", len(spans), zlib.crc32(repr(spans).encode()), spans[:4])
    for t in TEXTS:
        try:
            e = t.encode(name)
            print(name, repr(t), e, e.decode(name) == t)
        except UnicodeEncodeError as x:
            print(name, repr(t), "UnicodeEncodeError", x.start, x.end, x.reason)
    for h in ("strict", "ignore", "replace", "backslashreplace", "xmlcharrefreplace", "namereplace",
              "cjktest.record", "cjktest.bytes", "cjktest.badrepl", "cjktest.bad", "cjktest.far"):
        show("  enc %s" % h, lambda: "a\u0100日b\U0010ffff\u20ac".encode(name, h))
    for h in ("strict", "ignore", "replace", "backslashreplace", "surrogateescape", "cjktest.record",
              "cjktest.bad", "cjktest.far"):
        show("  dec %s" % h, lambda: b"a\x80\xff\x81\x20\xfe\xfeb\x81".decode(name, h))
    show("  codec.encode", lambda: codecs.lookup(name).encode("日本"))
    show("  codec.decode", lambda: codecs.lookup(name).decode(bytearray("日本".encode(name, "replace"))))
    show("  errors type", lambda: codecs.lookup(name).encode("a", 5))
    show("  str() of input", lambda: codecs.lookup(name).encode(12))
    # incremental, split everywhere
    for t in TEXTS[2:10]:
        data = t.encode(name, "replace")
        for cut in range(len(data) + 1):
            d = codecs.getincrementaldecoder(name)()
            got = d.decode(data[:cut]) + d.decode(data[cut:], final=True)
            if got != data.decode(name):
                print("  split differs", repr(t), cut, repr(got))
        d = codecs.getincrementaldecoder(name)("replace")
        print("  bytewise", [d.decode(data[i:i + 1]) for i in range(len(data))], d.getstate(),
              repr(d.decode(b"", True)))
        e = codecs.getincrementalencoder(name)("replace")
        parts = [e.encode(c) for c in t] + [e.encode("", True)]
        print("  enc parts", parts, b"".join(parts) == t.encode(name, "replace"))
    d = codecs.getincrementaldecoder(name)()
    print("  partial", repr(d.decode(b"a~" if name == "hz" else b"a\x1b$" if name.startswith("iso") else b"a\x81")), d.getstate())
    d.setstate(codecs.getincrementaldecoder(name)().getstate())   # (b"", 0) would crash CPython's ISO-2022
    print("  after setstate", repr(d.decode(b"b")), d.getstate())
    show("  incomplete final", lambda: codecs.getincrementaldecoder(name)().decode(b"\x81", True))
    e = codecs.getincrementalencoder(name)("replace")
    print("  enc state", e.encode("か"), e.getstate())
    st = e.getstate()
    print("  enc flush", e.encode("", True), e.getstate())
    e.setstate(st)
    print("  enc restored", e.encode("\u309a", True))
    e.reset()
    print("  enc reset", e.getstate(), e.errors)
    # streams
    buf = io.BytesIO()
    w = codecs.getwriter(name)(buf, "replace")
    w.write("日本語 text\n")
    w.writelines(["한국어\n", "中文\n", "か"])
    w.reset()
    print("  written", buf.getvalue(), w.errors)
    r = codecs.getreader(name)(io.BytesIO(buf.getvalue()), "replace")
    print("  read", repr(r.read(3)), repr(r.readline()), r.readlines())
    r = codecs.getreader(name)(io.BytesIO(buf.getvalue()))
    print("  read all", repr(r.read()))
    show("  read bad", lambda: codecs.getreader(name)(io.BytesIO(b"ab\x81")).read())

# hz's modes: escapes, line continuation, errors in either mode, state across calls and resets
for data in [b"~{VP~}~~x~\nY", b"~{VPND", b"~}a", b"~{~~~}", b"~x", b"a~", b"~{V", b"~{VP\x80~}", b"~{\x21\x21~}",
             b"~{VP\nND~}", b"~{\x7f\x7f~}z"]:
    for h in ("strict", "replace", "cjktest.record"):
        show("hz %r %s" % (data, h), lambda: data.decode("hz", h))
    for cut in range(len(data) + 1):
        d = codecs.getincrementaldecoder("hz")("replace")
        a = d.decode(data[:cut])
        st = d.getstate()
        d2 = codecs.getincrementaldecoder("hz")("replace")
        d2.setstate(st)
        if a + d2.decode(data[cut:], True) != data.decode("hz", "replace"):
            print("hz split differs", data, cut)
e = codecs.getincrementalencoder("hz")("replace")
print([e.encode(c) for c in "中a~文\u20ac字"], e.getstate(), e.encode("", True), e.getstate())
e.encode("中")
e.reset()
print(e.getstate(), e.encode("x", True))
st = codecs.getincrementalencoder("hz")()
st.encode("中")
s2 = codecs.getincrementalencoder("hz")()
s2.setstate(st.getstate())
print(s2.encode("文a", True))


# ISO-2022: escape sequences (good, bad, unterminated, not ISO-2022), SO/SI, newlines, state across calls
for name in ("iso2022_jp", "iso2022_kr", "iso2022_jp_1", "iso2022_jp_ext", "iso2022_jp_2", "iso2022_jp_2004",
             "iso2022_jp_3"):
    for data in [b"\x1b$B0l\x1b(B", b"\x1b$@0l", b"\x1b(J\\~\x1b(B\\~", b"\x1b$)C\x0eG1\x0fa\x0eG1\nG1",
                 b"\x1b$(D0l", b"\x1b(Z", b"\x1bx\x81A", b"\x1b", b"\x1b$", b"\x1b&@\x1b$B09", b"\x1b&@\x1b$Ax",
                 b"\x0e\x0f", b"\x1b$B\x7f\x7f\x21", b"\x1b$Bx\x80", b"\x1b$)C\x0e\xff", b"\x1b$B!@",
                 b"\x1b$)C\x0e\x24\x54\x0f", b"\x1b\x1b(B", b"\x1b$)C\x1b$B0l", b"\x1b$(D0l\x1b(B",
                 b"\x1b$(D\x22\x2f\x7e\x7e", b"\x1b(I16\x60\x1b(B", b"\x1b.A\x1bNi\x1bN\x7f",
                 b"\x1b.F\x1bNa\x1bN$\x1bN\n", b"ab\x1bNdef", b"\x1b$(C0!\x1b$A0!\x1b$(A0!", b"\x1b(Fa\x1b.B\x1bN\x80",
                 b"\x1b.A\x1bN", b"\x1b$(Q\x24\x77\x1b$(P\x21\x21\x1b$B0l\x1b(B", b"\x1b$(O\x2e\x21\x2e\x23",
                 b"\x1b$(Q\x22\x32\x2e\x21", b"\x1b$(P\x30\x21\x7e\x76", b"\x1b$)Q!!\x1b$(Q!", b"\x1b$(O\x24\n",
                 b"\x1b$(P\x7d\x3b\x0e!!"]:
        for h in ("strict", "replace", "cjktest.record"):
            show("%s %r %s" % (name, data, h), lambda: data.decode(name, h))
        for cut in range(len(data) + 1):
            d = codecs.getincrementaldecoder(name)("replace")
            a = d.decode(data[:cut])
            st = d.getstate()
            d2 = codecs.getincrementaldecoder(name)("replace")
            d2.setstate(st)
            if a + d2.decode(data[cut:], True) != data.decode(name, "replace"):
                print(name, "split differs", data, cut)
    for t in ["日本\n¥a‾", "한\n국a", "\uff3c", "a\u00e9b", "日\u20ac本", "\u3164", "\u4e02\u02d8", "ｱｲ\uff9f日",
              "か\u309aか\u00e6\u0300\u00e6\u4ff1\U00020089~\uff5e\u3402\u4e02"]:
        show("%s encode %r" % (name, t), lambda: t.encode(name, "replace"))
        e = codecs.getincrementalencoder(name)("xmlcharrefreplace")
        parts = [e.encode(c) for c in t]
        print(name, parts, e.getstate(), e.encode("", True), e.getstate())
        e2 = codecs.getincrementalencoder(name)()
        e2.setstate(e.getstate())
        show("  after setstate", lambda: e2.encode(t, True))
        e2 = codecs.getincrementalencoder(name)("replace")
        e2.encode(t)
        e2.reset()
        print("  encoder reset", e2.getstate(), e2.encode("a" + t, True))
        d = codecs.getincrementaldecoder(name)("replace")
        d.decode(t.encode(name, "replace")[:-1])
        d.reset()
        print("  decoder reset", d.getstate(), repr(d.decode(b"G1\x0eG1")))
