# CPython's codecs and encodings package over tmpy's C _codecs; str.encode / bytes.decode use the registry for encodings tmpy's C codecs lack.
import codecs
print(codecs.lookup("UTF-8").name, codecs.lookup("latin1").name, codecs.lookup("cp1252").name)
print(codecs.encode("héllo", "utf-8"), codecs.decode(b"h\xc3\xa9", "utf-8"), codecs.encode("é", "latin-1"))
print("héllo€".encode("cp1252"), b"\x80abc".decode("cp1252"), codecs.decode(b"\xff", "cp437"))
try:
    codecs.lookup("nope")
except LookupError as e:
    print("LookupError", e)
d = codecs.getincrementaldecoder("utf-8")()
print(repr(d.decode(b"\xe2\x82")), repr(d.decode(b"\xac!")), repr(d.decode(b"", final=True)))
print(codecs.utf_8_decode(b"ab\xc3", None, False), codecs.utf_16_le_decode(b"a\x00b", None, False))
print(codecs.escape_decode(b"a\\n\\x41\\101"), codecs.escape_encode(b"a\n'\x00"))
for h in ("strict", "ignore", "replace", "backslashreplace", "xmlcharrefreplace", "namereplace"):
    print(h, codecs.lookup_error(h).__name__)
e = UnicodeEncodeError("ascii", "a\u20acb", 1, 2, "bad")
for h in ("ignore", "replace", "backslashreplace", "xmlcharrefreplace", "namereplace"):
    print(h, codecs.lookup_error(h)(e))
d = UnicodeDecodeError("utf-8", b"a\xffb", 1, 2, "bad")
for h in ("ignore", "replace", "backslashreplace", "surrogateescape"):
    print(h, codecs.lookup_error(h)(d))
try:
    codecs.lookup_error("strict")(e)
except UnicodeEncodeError as x:
    print("raised", x)
try:
    codecs.lookup_error("zzz")
except LookupError as x:
    print("LookupError", x)
try:
    "\u20ac".encode("cp437")
except UnicodeEncodeError as x:
    print("UnicodeEncodeError", x)
print(codecs.BOM_UTF8, codecs.iterdecode([b"\xe2", b"\x82\xac"], "utf-8").__class__.__name__, "".join(codecs.iterdecode([b"\xe2", b"\x82\xac"], "utf-8")))
print("\u0410\u0431".encode("koi8_r"), b"\xe1\xc2".decode("koi8_r"), "x\u00ff".encode("iso8859_15"))
print("a\u00e9".encode("cp850", "replace"), "\u20ac".encode("latin-1", "xmlcharrefreplace"))
try:
    "abc".encode("rot13")
except LookupError as e:
    print("LookupError", e)
print(codecs.encode("abc", "rot13"))
for name in ("utf_16", "utf-32", "mac_roman", "cp1251"):
    print(name, codecs.lookup(name).name, "z\u0416".encode(name, "replace")[-4:])
# a search function that allocates (collects) before lookup reports the name
def busy_search(name):
    junk = [str(i) * 3 for i in range(3000)]
    return None
codecs.register(busy_search)
try:
    codecs.lookup("".join(["no-such-", "codec-", str(12345)]))
except LookupError as e:
    print("LookupError", e)
codecs.unregister(busy_search)
class DecodeErr(UnicodeDecodeError):
    pass
for handler in ("xmlcharrefreplace", "namereplace"):
    try:
        codecs.lookup_error(handler)(DecodeErr("utf-8", bytes([200, 201]) * 3, 0, 1, "bad"))
    except TypeError as e:
        print("TypeError", e)
try:
    b"a\x81".decode("cp1252")
except UnicodeDecodeError as e:
    print("UnicodeDecodeError", e, e.object, e.start, e.end)
print(b"a\x81b".decode("cp1252", "ignore"), ascii(b"a\x81b".decode("cp1252", "replace")))
try:
    "ab\u20ac".encode("cp437")
except UnicodeEncodeError as e:
    print("UnicodeEncodeError", e.object, e.start, e.end, e.reason)
# a codec whose encoder breaks the (object, length) rule, through codecs.encode and str.encode
def badtuple_search(name):
    if name == "badtuple":
        return codecs.CodecInfo(lambda s, e="strict": s, lambda b, e="strict": (bytes(b).upper(), len(b)),
                                name="badtuple")
    return None
codecs.register(badtuple_search)
for call in (lambda: codecs.encode("x", "badtuple"), lambda: "x".encode("badtuple")):
    try:
        call()
    except TypeError as e:
        print("TypeError", e)
print(codecs.decode(b"ab", "badtuple"))
try:
    b"ab".decode("badtuple")
except TypeError as e:
    print("TypeError", e)
codecs.unregister(badtuple_search)
# bytes-like arguments: a memoryview is one, a str or an int is not
print(codecs.utf_16_ex_decode(memoryview(b"\xff\xfea\x00b\x00"), None, 0, True),
      codecs.charmap_decode(memoryview(b"ab")), codecs.utf_8_decode(memoryview(b"xy")))
for call in (lambda: codecs.utf_8_decode("s"), lambda: codecs.escape_decode(3), lambda: codecs.charmap_decode(3)):
    try:
        call()
    except TypeError as e:
        print("TypeError", e)
# surrogatepass reads the error's encoding attribute: not a str is a TypeError
for enc in (None, 5):
    err = UnicodeEncodeError("utf-8", "a\ud800", 1, 2, "surrogates not allowed")
    err.encoding = enc
    try:
        codecs.lookup_error("surrogatepass")(err)
    except TypeError as e:
        print("TypeError", e)
for handler in ("ignore", "replace", "backslashreplace", "xmlcharrefreplace", "namereplace",
                "surrogateescape", "surrogatepass"):
    try:
        codecs.lookup_error(handler)(ValueError("x"))
    except TypeError as e:
        print(handler, "TypeError", e)
    try:
        codecs.lookup_error(handler)()
    except TypeError as e:
        print(handler, "TypeError", e)
