# Error handlers registered with codecs.register_error, called by every C codec as CPython does
# (PEP 293): UTF-8, ASCII, Latin-1, UTF-16/32 (all byte orders), unicode_escape,
# raw_unicode_escape, charmap (codecs.charmap_encode/decode and the 8-bit encodings), UTF-7,
# through str.encode, bytes.decode, str() and the _codecs functions. What the handler sees (the
# exception's type, encoding, object, span, reason), what it may return (str, bytes for encoders,
# negative and out-of-range positions, wrong types), a decode handler replacing exc.object, the
# built-in handlers called directly (also with UnicodeTranslateError), and str.translate's errors.
import codecs, sys

def show(label, f):
    try:
        r = f()
        print(label, ascii(r))
    except Exception as e:
        print(label, type(e).__name__, ascii(str(e)), ascii(getattr(e, "start", None)),
              ascii(getattr(e, "end", None)))

seen = []
def record(exc):
    obj = exc.object
    seen.append((type(exc).__name__, exc.encoding, exc.start, exc.end, exc.reason,
                 obj if isinstance(obj, str) else bytes(obj)))
    return ("<%d:%d>" % (exc.start, exc.end), exc.end)
codecs.register_error("cbtest.record", record)

def flush(label):
    print(label, ascii(seen))
    seen.clear()

# what the handler sees, for each codec family
enc_cases = [
    ("ascii", "a\xe9\u20acb\xff"), ("latin-1", "a\xe9\u20ac\u0100b"), ("iso-8859-1", "\u0101x"),
    ("utf-8", "a\ud800\udfffb\udc80"), ("utf-16", "a\ud800b"), ("utf-16-le", "\udc00\udc01"),
    ("utf-16-be", "x\ud800"), ("utf-32", "\udfff"), ("utf-32-le", "a\ud800"), ("utf-32-be", "\udc80z"),
    ("cp1252", "a\u0100\u0101b\x81"), ("iso-8859-15", "\xa4\u20ac\u1234"), ("koi8-r", "\u0430x\xe9"),
]
for enc, s in enc_cases:
    show("encode %s" % enc, lambda: s.encode(enc, "cbtest.record"))
    flush("  seen")

dec_cases = [
    ("ascii", b"a\x80\xffb"), ("utf-8", b"a\xff\xc3(\xe2\x82\xf0\x9f\x98"), ("utf-8", b"\xed\xa0\x80x"),
    ("utf-16", b"\xff\xfe\x00\xd8a\x00"), ("utf-16", b"a\x00\x00\xdc"), ("utf-16-le", b"\x00\xd8\x00\xd8x"),
    ("utf-16-be", b"\xd8\x00"), ("utf-16-be", b"\x00a\x00"), ("utf-32", b"\x00\x00\x11\x00"),
    ("utf-32-le", b"\x00\xd8\x00\x00abc"), ("utf-32-be", b"\x00\x00\x00a\x00"),
    ("unicode-escape", b"\\x4g\\u12\\U0011ffff\\N{NOPE}\\N{SPACE\\"), ("raw-unicode-escape", b"\\u12x\\U00110000"),
    ("cp1252", b"a\x81\x8db"), ("iso-8859-6", b"\xa1\xff"), ("utf-7", b"a+\xffb"),
]
for enc, b in dec_cases:
    show("decode %s %s" % (enc, ascii(b)), lambda: b.decode(enc, "cbtest.record"))
    flush("  seen")
show("str() latin-1 never fails", lambda: str(b"\xff\x80", "latin-1", "cbtest.record"))
show("bytearray decode", lambda: bytearray(b"x\xffy").decode("utf-8", "cbtest.record"))
flush("  seen")
show("memoryview utf_8_decode", lambda: codecs.utf_8_decode(memoryview(b"\xfe\xff"), "cbtest.record", True))
flush("  seen")

# replacements: bytes for encoders (not for decoders), non-ASCII str, odd-length bytes
def returning(value):
    codecs.register_error("cbtest.ret", lambda exc: value)
for value in [("R", None), (b"\xbd\xbe", None), ("\xbd", None), ("\u20ac", None), (b"abc", None),
              (b"abcd", None), ("", None)]:
    def h(exc, rep=value[0]):
        return (rep, exc.end)
    codecs.register_error("cbtest.ret", h)
    for enc, s in [("ascii", "[\xe9]"), ("latin-1", "[\u20ac]"), ("utf-8", "[\udc80]"), ("utf-16-le", "[\udc80]"),
                   ("utf-32-be", "[\udc80]"), ("iso-8859-15", "[\xa4]"), ("cp1252", "[\u0100]")]:
        show("repl %s %s" % (ascii(value[0]), enc), lambda: s.encode(enc, "cbtest.ret"))
    for enc, b in [("ascii", b"[\xff]"), ("utf-8", b"[\xff]"), ("utf-16-le", b"[\x00\x00\xdc"),
                   ("unicode-escape", b"[\\x]"), ("cp1252", b"[\x81]")]:
        show("repl %s decode %s" % (ascii(value[0]), enc), lambda: b.decode(enc, "cbtest.ret"))

# wrong results: TypeError, OverflowError, IndexError with CPython's messages
for value in [42, None, ("x",), ("x", 1, 2), ("x", None), ("x", 1.5), (1, 1), ("x", 10**30), ("x", -10**30),
              ("x", 100), ("x", -100), [("x", 1)]]:
    returning(value)
    for enc, s in [("ascii", "a\xe9"), ("utf-8", "\udc80"), ("utf-16", "\udc80"), ("cp1252", "\u0100")]:
        show("bad %s encode %s" % (ascii(value), enc), lambda: s.encode(enc, "cbtest.ret"))
    for enc, b in [("ascii", b"\xff"), ("utf-8", b"\xff"), ("utf-32-le", b"\xff"), ("unicode-escape", b"\\x"),
                   ("raw-unicode-escape", b"\\u1"), ("cp1252", b"\x81"), ("utf-7", b"+\xff")]:
        show("bad %s decode %s" % (ascii(value), enc), lambda: b.decode(enc, "cbtest.ret"))
show("codecs fn not wrapped", lambda: codecs.utf_16_le_decode(b"\xff", "cbtest.ret", True))
show("charmap fn", lambda: codecs.charmap_decode(b"\x81", "cbtest.ret", {}))

# positions: negative counts from the end, going back re-encodes (a bounded number of times)
class Pos:
    def __init__(self, pos, times):
        self.pos, self.times = pos, times
    def __call__(self, exc):
        if self.times > 0:
            self.times -= 1
            return ("<%d>" % exc.start, self.pos)
        return ("!", exc.end)
for pos in (-1, -2, 0, 1, 2):
    for enc, s in [("ascii", "\xff0"), ("latin-1", "\u0100x"), ("utf-8", "\udc80x"), ("utf-16-be", "\udc80x"),
                   ("cp1252", "\u0100x")]:
        codecs.register_error("cbtest.pos", Pos(pos, 3))
        show("pos %d encode %s" % (pos, enc), lambda: s.encode(enc, "cbtest.pos"))
    for enc, b in [("ascii", b"\xff0"), ("utf-8", b"\xff0"), ("utf-16-le", b"\x00\xdc0\x00"),
                   ("unicode-escape", b"\\x0"), ("cp1252", b"\x810")]:
        codecs.register_error("cbtest.pos", Pos(pos, 3))
        show("pos %d decode %s" % (pos, enc), lambda: b.decode(enc, "cbtest.pos"))

# a decode handler replacing the input: decoding goes on in the new object
def replace_input(exc):
    exc.object = b"ok\xffrest"[: 2 + len(seen)] if len(seen) < 3 else b""
    seen.append(exc.start)
    return ("[%d]" % exc.start, 0)
codecs.register_error("cbtest.mutate", replace_input)
for enc, b in [("ascii", b"\xff"), ("utf-8", b"\xff"), ("utf-16-le", b"\xff"), ("utf-32-be", b"\xff"),
               ("unicode-escape", b"\\x"), ("raw-unicode-escape", b"\\u"), ("cp1252", b"\x81"), ("utf-7", b"+\xff")]:
    show("mutate %s" % enc, lambda: b.decode(enc, "cbtest.mutate"))
    seen.clear()
def bad_object(exc):
    exc.object = "text"
    return ("x", 0)
codecs.register_error("cbtest.badobj", bad_object)
show("object not bytes", lambda: b"\xff".decode("utf-8", "cbtest.badobj"))
def longer(exc):
    exc.object = b"\x00" * 8
    return ("\ufffd", exc.start)
codecs.register_error("cbtest.longer", longer)
show("longer utf-16", lambda: b"\x00".decode("utf-16", "cbtest.longer"))
show("longer utf-32", lambda: b"\x00".decode("utf-32", "cbtest.longer"))

# a handler that raises, or is missing
def boom(exc):
    raise ValueError("boom at %d" % exc.start)
codecs.register_error("cbtest.boom", boom)
show("raises encode", lambda: "\xff".encode("ascii", "cbtest.boom"))
show("raises decode", lambda: b"\xff".decode("utf-16-le", "cbtest.boom"))
show("unknown", lambda: b"\xff".decode("ascii", "cbtest.nosuch"))
show("unknown charmap", lambda: codecs.charmap_encode("\u0100", "cbtest.nosuch", {}))

# charmap: mapping values, '?' through the mapping, run of undefined characters
m = {ord("a"): 1, ord("b"): b"BB", ord("?"): ord("Q"), ord("&"): 0x26, ord("#"): 0x23, ord(";"): 0x3b}
for d in "0123456789":
    m[ord(d)] = ord(d)
for errors in ("strict", "ignore", "replace", "xmlcharrefreplace", "backslashreplace", "namereplace",
               "cbtest.record"):
    show("charmap_encode %s" % errors, lambda: codecs.charmap_encode("ab\xe9\u20acb", errors, m))
flush("  seen")
show("charmap str value", lambda: codecs.charmap_encode("a", "strict", {97: "x"}))
show("charmap 300", lambda: codecs.charmap_encode("a", "strict", {97: 300}))
show("charmap ? missing", lambda: codecs.charmap_encode("ab", "replace", {97: 1}))
show("charmap_decode str table", lambda: codecs.charmap_decode(b"\x00\x01\x05", "cbtest.record", "ab\ufffe"))
show("charmap_decode int map", lambda: codecs.charmap_decode(b"\x00\x01\x02", "cbtest.record", {0: 65, 1: 0xFFFE}))
flush("  seen")
show("charmap_decode bad value", lambda: codecs.charmap_decode(b"\x00", "strict", {0: 1.5}))
show("charmap_decode big", lambda: codecs.charmap_decode(b"\x00", "strict", {0: sys.maxunicode + 1}))

# unicode_escape's warning of an unknown escape (once per call)
import warnings
with warnings.catch_warnings(record=True) as w:
    warnings.simplefilter("always")
    show("escape warn", lambda: codecs.unicode_escape_decode(b"\\z\\q\\501"))
    show("escape octal", lambda: codecs.unicode_escape_decode(b"\\501\\z"))
    show("escape str arg", lambda: codecs.unicode_escape_decode("\\u20ac"))
    print("warnings", [str(x.message) for x in w])
# codecs.escape_decode (bytes to bytes): strict, ignore, replace; any other name fails at an error only
with warnings.catch_warnings(record=True) as w:
    warnings.simplefilter("always")
    for data in [br"[\x]\x", br"\x0", br"[\x0y]", br"\z", br"\8", br"\501", b"\\\xe9", br"ok", b"\\"]:
        for errors in ("strict", "ignore", "replace", "cbtest.record", None):
            show("escape_decode %s %s" % (ascii(data), errors), lambda: codecs.escape_decode(data, errors))
    print("warnings", [str(x.message) for x in w])

# the built-in handlers called directly
E, D, T = UnicodeEncodeError, UnicodeDecodeError, UnicodeTranslateError
args = [E("ascii", "a\u3042\n\udc80b", 1, 4, "r"), D("ascii", bytearray(b"a\x80\xffb"), 1, 3, "r"),
        T("a\u3042\U0001f600b", 1, 3, "r"), E("ascii", "abc", -5, 10, "r"), 42, UnicodeError("x")]
for name in ("strict", "ignore", "replace", "backslashreplace", "xmlcharrefreplace", "namereplace",
             "surrogateescape", "surrogatepass"):
    h = codecs.lookup_error(name)
    for a in args:
        show("%s(%s)" % (name, type(a).__name__), lambda: h(a))
show("translate error str", lambda: str(T("g\xfcrk", 1, 2, "ouch")))
show("translate error str 2", lambda: str(T("g\xfcrk", 1, 3, "ouch")))
show("translate error attrs", lambda: (T("x", 0, 1, "r").encoding, T("x", 0, 1, "r").object))
show("decode error object", lambda: type(D("ascii", bytearray(b"x"), 0, 1, "r").object).__name__)
show("encode error bad arg", lambda: E("ascii", b"x", 0, 1, "r"))
show("translate error bad arg", lambda: T(b"x", 0, 1, "r"))
show("surrogatepass utf-16le", lambda: codecs.lookup_error("surrogatepass")(E("utf-16le", "a\ud800", 1, 2, "r")))
show("surrogatepass utf32BE", lambda: codecs.lookup_error("surrogatepass")(D("UTF32BE", b"\x00\x00\xd8\x00", 0, 4, "r")))

# str.translate's own errors
show("translate big", lambda: "\xff".translate({0xff: sys.maxunicode + 1}))
show("translate tuple", lambda: "\xff".translate({0xff: ()}))
show("translate ok", lambda: "abc".translate({97: "xy", 98: None, 99: 100}))

# a UTF-8 decoder that is not final holds back only a tail that can still become a character
for data in [b"\xf5", b"\xff", b"\xe0\x80", b"\xe0\x9f", b"\xf0\x8f", b"\xf4\x90", b"\xed\xa0", b"\xe0",
             b"\xe0\xa0", b"\xf0\x90\x80", b"\xf4\x8f", b"a\xc3", b"\xc1", b"\xc2"]:
    show("utf-8 not final %s" % ascii(data), lambda: codecs.utf_8_decode(data, "cbtest.record", False))
    show("  incremental", lambda: codecs.getincrementaldecoder("utf-8")("cbtest.record").decode(data))
flush("  seen")
