# Random inputs through the CJK codecs and UTF-7 against CPython: decoding bytes made of each codec's
# special bytes (leads, escapes, '~', '+') with every handler and a custom one that resumes elsewhere,
# byte-at-a-time incremental decoding, and encoding random texts with pair starts, combining marks,
# unencodable and lone surrogate characters. Two CPython bugs are kept out: its JIS X 0213 encoders
# read the character after a pair start as 16 bits (U+20000 after U+304B is dropped), and its hz encoder
# loses the second '~' of "~~" when its output buffer fills there (after a long replacement).
import codecs, random

rnd = random.Random(2026)
names = ["shift_jis", "cp932", "euc_jp", "euc_jis_2004", "euc_jisx0213", "shift_jis_2004", "shift_jisx0213",
         "euc_kr", "cp949", "johab", "gb2312", "gbk", "gb18030", "hz", "big5", "cp950", "big5hkscs", "utf-7",
         "iso2022_jp", "iso2022_kr", "iso2022_jp_1", "iso2022_jp_ext", "iso2022_jp_2", "iso2022_jp_2004",
         "iso2022_jp_3"]

def weird(e):
    k = (e.start * 7 + e.end * 3 + len(e.object)) % 5
    if isinstance(e, UnicodeEncodeError):
        return (["", "x", b"y", "\u4e2d", "\udc80"][k], e.end if k < 3 else e.start + 1)
    return (["z", "", "\udc80", "\u4e2d", "q"][k], e.end if k != 4 else max(e.start + 1, e.end - 1))
codecs.register_error("cjkrandom.weird", weird)

special = [0, 0x1b, 0x1b, 0x24, 0x28, 0x29, 0x42, 0x43, 0x40, 0x4a, 0x26, 0x0e, 0x0f, 0x0a, 0x7e, 0x7b, 0x7d, 0x2b, 0x2d, 0x41, 0x8f, 0xa4, 0xd4, 0x81, 0x30, 0x39, 0xfe, 0xff, 0x80]
chars = ["a", "~", "+", "-", "\u4e2d", "\uac00", "\u309a", "\u304b", "\U0002000b", "\U0001f600", "\udc80",
         "\u20ac", "\\", "\n", "\u00e6", "\u0300", "\uff71", "\u3000", "\u00a5", "\u203e", "\uff3c",
         "\ud55c", "\u65e5"]
for k in range(1500):
    name = rnd.choice(names)
    data = bytes(rnd.choice(special + [rnd.randrange(256)]) for _ in range(rnd.randrange(12)))
    errs = rnd.choice(["strict", "ignore", "replace", "backslashreplace", "surrogateescape", "cjkrandom.weird"])
    try:
        r = data.decode(name, errs)
    except UnicodeDecodeError as e:
        r = ("UnicodeDecodeError", e.start, e.end, e.reason)
    d = codecs.getincrementaldecoder(name)("replace")
    try:   # an unended ISO-2022 escape sequence overflows the 8 pending bytes
        parts = [d.decode(data[i:i + 1]) for i in range(len(data))] + [d.decode(b"", True)]
    except UnicodeError as e:
        parts = (type(e).__name__, str(e))
    text = "".join(rnd.choice(chars) for _ in range(rnd.randrange(8)))
    if name == "hz":
        text = text.replace("~", "")
    eh = rnd.choice(["strict", "ignore", "replace", "xmlcharrefreplace", "backslashreplace", "cjkrandom.weird",
                     "surrogateescape"])
    try:
        b = text.encode(name, eh)
    except UnicodeEncodeError as e:
        b = ("UnicodeEncodeError", e.start, e.end, e.reason)
    e = codecs.getincrementalencoder(name)("replace")
    eparts = [e.encode(c) for c in text] + [e.encode("", True)]
    print(k, name, data, errs, repr(r), parts, repr(text), eh, b, eparts)
