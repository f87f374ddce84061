# Precision and widths past the old 100000 cap are honoured; sizes that can
# never fit raise at once (MemoryError, OverflowError, ValueError as CPython).

def show(label, f):
    try:
        r = f()
    except Exception as e:
        print(label, '->', type(e).__name__, e)
    else:
        print(label, '->', len(r) if isinstance(r, (str, bytes, bytearray, list, tuple)) else r,
              repr(r[:12]) if isinstance(r, (str, bytes)) else '')


show('.200000f', lambda: format(1.0, '.200000f'))
show('.150000f neg', lambda: format(-2.5, '.150000f'))
show('.200000e', lambda: format(1.0, '.200000e'))
show('.200000g', lambda: format(1.0, '.200000g'))
show('#.200000g', lambda: format(1.0, '#.200000g'))
show('.200000%', lambda: format(1.0, '.200000%'))
show('.200000 (no type)', lambda: format(1.0, '.200000'))
show('{:.200000f}', lambda: '{:.200000f}'.format(1.0))
show('%.200000f', lambda: '%.200000f' % 1.0)
show('%.200000e', lambda: '%.200000e' % -1.0)
show('%200000.3f', lambda: '%200000.3f' % 1.0)
show('%-200001.3f', lambda: '%-200001.3f' % 1.0)
show('%0200000.3f', lambda: '%0200000.3f' % -1.0)
show('200000.3f', lambda: format(1.0, '200000.3f'))
show('b%.200000f', lambda: b'%.200000f' % 1.0)
print(format(1.0, '.200000f')[-3:], ('%.200000e' % 3.0)[-8:], ('%0200000.3f' % -1.0)[:4])

# precision past a C int
show('.100000000000f', lambda: format(1.0, '.100000000000f'))
show('.2147483648f', lambda: format(1.0, '.2147483648f'))
show('int .2147483648f', lambda: format(1, '.2147483648f'))
show('%.2147483648f', lambda: '%.2147483648f' % 1.0)
show('%.2147483648s', lambda: '%.2147483648s' % 'a')
show('b%.2147483648s', lambda: b'%.2147483648s' % b'a')
show('%.*f 2**31', lambda: '%.*f' % (2**31, 1.0))
show('%.*s -2**31-1', lambda: '%.*s' % (-2**31 - 1, 'a'))
show('%*d 2**63', lambda: '%*d' % (2**63, 1))
show('%*d -2**63', lambda: '%*d' % (-2**63 - 1, 1))
show('%99999999999999999999s', lambda: '%99999999999999999999s' % 'a')
show('b%99999999999999999999s', lambda: b'%99999999999999999999s' % b'a')
show('spec digits', lambda: format(1, '99999999999999999999'))
show('spec prec digits', lambda: format('a', '.99999999999999999999'))

# sizes that cannot fit: refused before building anything
N = 2**50
show('int width', lambda: format(1, str(N)))
show('float width', lambda: format(1.5, str(N)))
show('str width', lambda: format('a', '^' + str(N)))
show('int = width', lambda: format(-1, '0=' + str(N)))
show('str.format width', lambda: '{:{}}'.format(1, N))
show('%*d', lambda: '%*d' % (N, 1))
show('%-*s', lambda: '%-*s' % (N, 'a'))
show('%*f', lambda: '%*f' % (N, 1.0))
show('%*c', lambda: '%*c' % (N, 'a'))
show('b%*d', lambda: b'%*d' % (N, 1))
show('%1125899906842624d', lambda: '%1125899906842624d' % 1)
show('expandtabs 2**31', lambda: '\t'.expandtabs(2**31))
show('expandtabs 2**62', lambda: 'a\tb'.expandtabs(2**62))
show('bytes expandtabs', lambda: b'\t'.expandtabs(2**40))
show('expandtabs -2**31', lambda: 'a\tb'.expandtabs(-2**31))
show('str * n', lambda: 'ab' * N)
show('str * 2**62', lambda: 'ab' * 2**62)
show('bytes * n', lambda: b'ab' * N)
show('bytearray * n', lambda: bytearray(b'ab') * N)
show('list * n', lambda: [1, 2] * N)
show('tuple * n', lambda: (1, 2) * N)
show('ljust', lambda: 'a'.ljust(N))
show('center', lambda: 'a'.center(N, '\xe9'))
show('zfill', lambda: '-1'.zfill(N))
show('bytes ljust', lambda: b'a'.ljust(N))
show('bytearray(n)', lambda: bytearray(N))
show('bytes(n)', lambda: bytes(N))
show('to_bytes', lambda: (1).to_bytes(N, 'big'))

def imul(x):
    x *= N
    return x
show('list *=', lambda: imul([1]))
show('bytearray *=', lambda: imul(bytearray(b'ab')))
print('%05f|%-06f|%+05.1f|% 08.2f|%#.0f|%010.3g' % (float('inf'), float('-inf'), float('nan'), -1.5, 3, -0.0))
show('bytes * 2**62', lambda: b'ab' * 2**62)
x = 'a' * 2**25
show('replace grows', lambda: x.replace('a', 'y' * 2**25))
show('replace empty', lambda: x.replace('', 'y' * 2**25))
show('bytes replace', lambda: b'aaa'.replace(b'', b'xy' * 2**49))
show('1 << 2**62', lambda: 1 << 2**62)
show('1 << 2**70', lambda: 1 << 2**70)
