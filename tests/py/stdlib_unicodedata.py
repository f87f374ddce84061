import unicodedata as u
print(u.unidata_version)
chars = 'aZ5 \t\n\x00\xa0\xbd\xe9\u0301\u0300\u05d0\u0627\u0663\u2167\u2189\u3000\u4e07\uac00\ud7a3\ud800\ufb01\uff21\U0001d400\U0001f600\U00012432\U000e0001\u00b2\u0f33\u1e9b\u212b\u2126'
for ch in chars:
    print(hex(ord(ch)), u.category(ch), u.bidirectional(ch), u.east_asian_width(ch), u.mirrored(ch), u.combining(ch), repr(u.decomposition(ch)),
          u.decimal(ch, None), u.digit(ch, None), u.numeric(ch, None), u.name(ch, None))
import sys
# every code point, summarised (fast: a few hashes)
import hashlib
h = hashlib.md5()
for c in range(0, 0x110000, 61):
    ch = chr(c)
    h.update(('%s%s%s%d%d' % (u.category(ch), u.bidirectional(ch), u.east_asian_width(ch), u.mirrored(ch), u.combining(ch))).encode())
print('props', h.hexdigest())
h = hashlib.md5()
for c in range(0, 0x110000, 61):
    ch = chr(c)
    h.update(('%s|%s|%s|%s' % (u.decomposition(ch), u.decimal(ch, ''), u.digit(ch, ''), u.numeric(ch, ''))).encode())
print('decomp/numeric', h.hexdigest())
h = hashlib.md5()
for c in range(0, 0x30000, 89):
    ch = chr(c)
    if 0xd800 <= c < 0xe000: continue
    for form in ('NFC', 'NFD', 'NFKC', 'NFKD'):
        h.update(u.normalize(form, ch + '\u0301\u0327a').encode('utf-8', 'surrogatepass'))
print('normalize', h.hexdigest())
texts = ['e\u0301', 'E\u0327\u0301', '\u1e9b\u0323', '\uac00\u11a8', '\u1100\u1161\u11a8', 'ﬁ½²', 'A\u030a\u212b', '\u0071\u0307\u0323', 'a\u0301\u0302b\u0308\u0328', '\u0344\u0f73', '\u00c5\u0327']
for t in texts:
    print([u.normalize(f, t) for f in ('NFC', 'NFD', 'NFKC', 'NFKD')], [u.is_normalized(f, t) for f in ('NFC', 'NFD', 'NFKC', 'NFKD')])
print(u.lookup('LATIN SMALL LETTER E WITH ACUTE'), u.lookup('HANGUL SYLLABLE GAG'), u.lookup('CJK UNIFIED IDEOGRAPH-4E00'), u.name('\uac01'), u.name('\u4e00'))
for f in [lambda: u.name('\x00'), lambda: u.lookup('NOPE'), lambda: u.decimal('x'), lambda: u.digit('x'), lambda: u.numeric('x'), lambda: u.category('ab'), lambda: u.normalize('NFX', 'a'), lambda: u.category(1), lambda: u.normalize('NFC', 1), lambda: u.lookup('x' * 300)]:
    try: print(f())
    except Exception as e: print(type(e).__name__, e)
import re
print(re.sub(r'\N{EM DASH}', '-', 'a\u2014b'), 'caf\u00e9' == u.normalize('NFC', 'cafe\u0301'))
o = u.ucd_3_2_0
print(o.unidata_version, type(o).__name__)
h = hashlib.md5()
for c in range(0, 0x110000, 163):
    ch = chr(c)
    h.update(('%s%s%s%d%d|%s|%s|%s|%s|%s' % (o.category(ch), o.bidirectional(ch), o.east_asian_width(ch), o.mirrored(ch), o.combining(ch),
              o.decomposition(ch), o.decimal(ch, ''), o.digit(ch, ''), o.numeric(ch, ''), o.name(ch, ''))).encode())
print('3.2 props', h.hexdigest())
h = hashlib.md5()
for c in range(0, 0x30000, 241):
    ch = chr(c)
    if 0xd800 <= c < 0xe000: continue
    for form in ('NFC', 'NFD', 'NFKC', 'NFKD'):
        h.update(o.normalize(form, ch + '\u0301\u0327a').encode('utf-8', 'surrogatepass'))
print('3.2 normalize', h.hexdigest())
print([o.normalize('NFC', chr(c)) == chr(c) for c in (0x2f868, 0x2f874, 0xf951)], ascii(o.normalize('NFD', '\U0002f868')))
for bad in [lambda: o.name('\u0221'), lambda: o.lookup('LATIN SMALL LETTER D WITH CURL'), lambda: o.category('xy')]:
    try: print(bad())
    except Exception as e: print(type(e).__name__, e)
import stringprep, encodings.idna
print('bücher.example'.encode('idna'), b'xn--bcher-kva.example'.decode('idna'), stringprep.in_table_b1('\u00ad'), stringprep.map_table_b2('\u00df'), stringprep.in_table_c21('\u0080'), stringprep.in_table_d1('\u05d0'))
