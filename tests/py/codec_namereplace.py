# The namereplace error handler (str.encode): \N{NAME} for characters with a
# Unicode name (table names, Hangul syllables and CJK ideographs by rule),
# \x/\u/\U escapes for those without (unassigned, private use, surrogates);
# on decoding it is a TypeError, as in CPython.
import random

r = random.Random(5)
cps = [0x41, 0xe9, 0x20ac, 0xac00, 0xd7a3, 0x4e00, 0x1f600, 0x10ffff, 0xe000, 0x0378, 0xfa70, 0x18b00,
       0x2f800, 0xd800, 0x1d11e, 0x7f, 0x80, 0xa0, 0x2028]
cps += [r.randrange(0x30000) for _ in range(600)]
total = 0
for c in cps:
    out = chr(c).encode('ascii', 'namereplace')
    total += len(out)
    if c < 0x30000 and c % 37 == 0 or c in cps[:19]:
        print(hex(c), out)
print("total", total)
print('é€ x'.encode('latin-1', 'namereplace'))
print('a\udcffb'.encode('utf-8', 'namereplace'))
print('a\ud800'.encode('utf-16-le', 'namereplace'))
try:
    b'\xff'.decode('utf-8', 'namereplace')
except TypeError as e:
    print('TypeError', e)
# surrogatepass on decoding: an encoded surrogate comes back as the lone surrogate
s = b'a\xed\xa0\x80b\xed\xbf\xbf'.decode('utf-8', 'surrogatepass')
print(ascii(s), len(s), s.encode('utf-8', 'surrogatepass') == b'a\xed\xa0\x80b\xed\xbf\xbf')
for bad in (b'\xed\xa0', b'\xed\x9f\xbf', b'\xed'):
    try:
        print(ascii(bad.decode('utf-8', 'surrogatepass')))
    except UnicodeDecodeError as e:
        print('UnicodeDecodeError', e.start, e.end, e.reason)
