# _codecs' UTF decoders take final=False by default (CPython): a
# codecs.StreamReader calls them with (data, errors) and keeps what an
# incomplete tail leaves for the next read; the others decode everything.
import codecs
import io

print(codecs.utf_8_decode(b"a\xc3"))
print(codecs.utf_16_le_decode(b"a\x00b"), codecs.utf_16_be_decode(b"\x00a\xd8"))
print(codecs.utf_16_decode(b"\xff\xfea"), codecs.utf_32_decode(b"\xff\xfe\x00\x00a"))
print(codecs.utf_32_le_decode(b"a\x00\x00\x00b\x00"), codecs.utf_32_be_decode(b"\x00\x00\x00a\x00"))
print(codecs.latin_1_decode(b"ab\xe9"), codecs.ascii_decode(b"ab"))
for final in (False, True):
    try:
        print(final, codecs.utf_8_decode(b"a\xc3", None, final))
    except UnicodeDecodeError as e:
        print(final, "UnicodeDecodeError", e)

# byte by byte through a StreamReader, as test_codecs' check_partial
for enc in ["utf-8", "utf-16", "utf-16-le", "utf-16-be", "utf-32", "utf-32-le", "utf-32-be"]:
    data = "a\xe9\u20ac\U0001f600".encode(enc)
    q = io.BytesIO()
    r = codecs.getreader(enc)(q)
    parts = []
    for i, b in enumerate(data):
        q.write(bytes([b]))
        q.seek(i)
        parts.append(r.read())
    print(enc, parts, r.read() == "", r.bytebuffer)

# readbuffer_encode: the bytes of a buffer (or of a str in UTF-8) and their count
import array
print(codecs.readbuffer_encode(array.array("b", b"spam")), codecs.readbuffer_encode(""),
      codecs.readbuffer_encode("h\xe9", "strict"), codecs.readbuffer_encode(memoryview(b"ab")))
for bad in [(), (42,)]:
    try:
        codecs.readbuffer_encode(*bad)
    except TypeError:
        print("TypeError")
