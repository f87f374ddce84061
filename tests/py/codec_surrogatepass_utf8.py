# bytes.decode('utf-8', 'surrogatepass') takes encoded surrogates back (it
# raised UnicodeDecodeError), and only them: other bad bytes still fail.
def t(label, f):
    try: print(label, 'ok', ascii(f()))
    except Exception as e: print(label, type(e).__name__, e)
for b in [b'a\xed\xa0\x80', b'\xed\xbf\xbfz', b'\xed\xa0', b'\xed\xa0\x80\xed\xb0\x80', b'\xed\x9f\xbf', b'\xed\xa0\x7f', b'x\xffy\xed\xb2\x80', b'\xf0\x9f\x98\x80\xed\xa0\x80']:
    t(ascii(b), lambda: b.decode('utf-8', 'surrogatepass'))
    t(ascii(b) + ' roundtrip', lambda: b.decode('utf-8', 'surrogatepass').encode('utf-8', 'surrogatepass') == b)
    t(ascii(b) + ' len', lambda: len(b.decode('utf-8', 'surrogatepass')))
    t(ascii(b) + ' str()', lambda: str(b, 'utf-8', 'surrogatepass'))
    t(ascii(b) + ' bytearray', lambda: bytearray(b).decode('utf8', errors='surrogatepass'))
