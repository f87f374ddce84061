import binascii, base64
print(binascii.hexlify(b'\x01\xab\xff'), binascii.unhexlify('01abFF'), binascii.b2a_hex(b'abcdef', '-', 2), binascii.hexlify(b'abcde', b':', -2))
for d in [b'', b'a', b'ab', b'abc', b'abcd', bytes(range(256))]:
    e = binascii.b2a_base64(d)
    assert binascii.a2b_base64(e) == d
    print(e, binascii.b2a_base64(d, newline=False))
for bad in ['YQ', 'YWJ', 'Y', '=YWI=', 'YW==Jj', 'YW=Jj', 'YW!J', 'YWJj===', 'YW=\nJj']:
    for strict in (False, True):
        try: print(repr(bad), strict, binascii.a2b_base64(bad, strict_mode=strict))
        except binascii.Error as e: print(repr(bad), strict, 'Error', e)
for f, a in [(binascii.a2b_base64, (1,)), (binascii.b2a_base64, ('x',)), (binascii.a2b_base64, ('é',)), (binascii.a2b_hex, ('abc',)), (binascii.a2b_hex, ('zz',)), (binascii.b2a_uu, (b'x'*46,)), (binascii.a2b_uu, (b'!\x01',)), (binascii.a2b_uu, (b'!YY  x',)), (binascii.crc32, ()), (binascii.crc_hqx, (b'',)), (binascii.crc32, (b'', 1.5)), (binascii.b2a_base64, ()), (binascii.b2a_base64, (b'', 1))]:
    try: print(f(*a))
    except Exception as e: print(type(e).__name__, e)
print(binascii.crc32(b'hello'), binascii.crc32(b'world', binascii.crc32(b'hello ')), binascii.crc32(b'x', -1), binascii.crc32(b'x', 2**40+5))
print(binascii.crc_hqx(b'hello', 0), binascii.crc_hqx(b'hello', 0xffff), binascii.crc_hqx(b'123456789', 0x1234))
for d in [b'', b'a', b'hello world', bytes(range(45))]:
    u = binascii.b2a_uu(d); print(u, binascii.b2a_uu(d, backtick=True)); assert binascii.a2b_uu(u) == d
print(binascii.a2b_uu(b''), binascii.a2b_uu(b'\n'), binascii.a2b_uu(' '))
text = b'Hello = world\tx \nline two ending in space \r\n' + b'long' * 30 + b'\n.\n\xe9t\xe9 _under_ \t'
for qt in (False, True):
    for it in (False, True):
        for h in (False, True):
            q = binascii.b2a_qp(text, quotetabs=qt, istext=it, header=h)
            print(q)
            print(binascii.a2b_qp(q, header=h) == text)
print(binascii.a2b_qp(b'a=3D=\nb==c=zz=4'), binascii.a2b_qp('a_b', header=True), binascii.b2a_qp(b'a\r\nb \r\n'))
print(base64.b64encode(b'xyz'), base64.b64decode('eHl6'), base64.urlsafe_b64encode(b'\xff\xfe'), base64.b32encode(b'abc'), base64.b16decode('6162'), base64.b85encode(b'hello'), base64.a85encode(b'hello'))
try: base64.b64decode('abc')
except binascii.Error as e: print('Error', e)
print(base64.b64decode('ab$c', validate=False) if False else '', base64.encodebytes(b'x'*100))
import quopri, uu, io
print(quopri.encodestring(b'caf\xe9 = ok'), quopri.decodestring(b'caf=E9'))
print(binascii.Error.__mro__[1], binascii.Incomplete.__module__, binascii.Error.__name__)
