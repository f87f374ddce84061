# The surrogatepass error handler for UTF-16 and UTF-32 (both byte orders), as for UTF-8.
import codecs

for enc in ('utf-8', 'utf-16', 'utf-16-le', 'utf-16-be', 'utf-32', 'utf-32-le', 'utf-32-be', 'UTF_16LE', 'utf32'):
    for s in ('\ud800', 'a\udc80b', '\U00010fff\udc80A', '[\ud901\udc02]'):
        b = s.encode(enc, 'surrogatepass')
        print(enc, ascii(s), b.hex(), ascii(b.decode(enc, 'surrogatepass')))
    try:
        'a\udc80b'.encode(enc)
    except UnicodeEncodeError as e:
        print('strict', e.start, e.end, e.reason)
    for i in range(1, len('\ud901'.encode(enc, 'surrogatepass'))):
        data = '\ud901'.encode(enc, 'surrogatepass')
        dec = codecs.getincrementaldecoder(enc)('surrogatepass')
        print(ascii(dec.decode(data[:i])), ascii(dec.decode(data[i:], True)), end=' ')
    print()
try:
    'x'.encode('latin-1', 'surrogatepass')
    '\udc80'.encode('latin-1', 'surrogatepass')
except UnicodeEncodeError as e:
    print('latin-1', e.reason)
try:
    b'\x00\x00\x00\x41'.decode('utf-32-be', 'surrogatepass'), b'\x00\x00\x11\x00'.decode('utf-32-be', 'surrogatepass')
except UnicodeDecodeError as e:
    print('utf-32-be', e.start, e.end)
h = codecs.lookup_error('surrogatepass')
for enc, data in (('utf-16-le', b'a\x00\x00\xdcb\x00'), ('utf-16-be', b'\x00a\xdc\x00'), ('utf-32-le', b'\x00\xd8\x00\x00'),
                  ('utf-8', b'\xed\xb2\x80'), ('utf-16', b'\x00\x00')):
    try:
        print(enc, ascii(h(UnicodeDecodeError(enc, data, 2 if len(data) > 4 else 0, len(data), 'x'))))
    except UnicodeDecodeError as e:
        print(enc, 'raised', e.start, e.end)
for enc in ('utf-16-be', 'utf-32', 'UTF8', 'ascii'):
    try:
        print(enc, h(UnicodeEncodeError(enc, 'a\ud800\udfffb', 1, 3, 'x')))
    except UnicodeEncodeError as e:
        print(enc, 'raised', e.start, e.end)
try:
    h(UnicodeEncodeError('utf-16', 'a\ud800b', 1, 3, 'x'))
except UnicodeEncodeError as e:
    print('non-surrogate raised', e.start, e.end)
