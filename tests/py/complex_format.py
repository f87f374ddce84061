# repr, str and format() of complex: CPython's rules for parentheses, signs,
# signed zeros, inf and nan, and every format-spec feature complex accepts.
inf = float('inf')
nan = float('nan')

vals = [1j, 1 + 2j, complex(-0.0, 0.0), complex(0.0, -0.0), complex(-0.0, -0.0), 1.5 + 0j, complex(1e16, 1e-5),
        complex(inf, nan), complex(123456789.123, -0.5), complex(0, 1e300), complex(-inf, -inf), complex(nan, -inf),
        complex(1e22, 1), complex(0.1, 0.2), complex(-1.0, -1e16), 123456789012345678j, 1e-7j, complex(1e16, 1e-16),
        complex(-2.5, 0.0), complex(5e-324, -5e-324), complex(1.0, -nan), complex(-nan, 1), complex(0, -nan),
        complex(-0.0, nan), complex(1e-5, 1e-4), complex(123.0, 456.0), complex(0.0, 0.0)]

for v in vals:
    print(repr(v), str(v), '%s' % v, '%r' % (v,), '{}'.format(v), '{!r}'.format(v), f'{v}', f'{v!s}', [v], (v,))

specs = ['', '10', '<20', '>20', '^20', '*^30', '+', '-', ' ', '.3', '.0', '#', '#.3', 'e', 'E', '.2e', 'f', 'F',
         '.2f', 'g', 'G', '.3g', 'n', '.2n', ',', ',.2f', '_', '_f', 'z', 'z.1f', '+.1f', '#g', '#.0f', '#e', '10.3',
         '20e', '.10', ' .2f', '+20.3g', '\u00e9^24.2e', 'z+.0f', '-^30', '.17', '.17g', '<', '>', '^', 'z^20',
         '#.5', '+#', ' #', '_.1f', ',e', ',g', ',.3', '_G', '.1F', '30,', '>+#30.4E']
for v in vals:
    for s in specs:
        try:
            r = format(v, s)
        except Exception as e:
            r = 'ERR %s: %s' % (type(e).__name__, e)
        print(repr(v), repr(s), repr(r))

for s in ['010', '=10', 'x=10', '%', 'd', 'x', 's', 'c', '0<10', ',n', '.2%', 'b', 'o', 'X', '0', '+010.2f', '=',
          '._f', ',_', '_,', '.f', '10.2fx', '\u00e9', '.2z', 'z%']:
    try:
        r = format(1 + 2j, s)
    except Exception as e:
        r = 'ERR %s: %s' % (type(e).__name__, e)
    print(repr(s), repr(r))

# str.format / f-strings with nested specs, __format__ called directly
w, p = 25, 3
z = complex(-1.25, 3.5)
print(f'{z:{w}.{p}f}|{z:^{w}}|{z!r:>{w}}|{z:*<{w}.{p}e}')
print('{0:.1f} {0:g} {1:>12}'.format(z, 1j))
print(z.__format__(''), z.__format__('.2f'), complex.__format__(1j, 'g'))
for bad in [None, 1, b'f']:
    try:
        print(z.__format__(bad))
    except TypeError as e:
        print('TypeError', e)
try:
    format(z, '.1f', 1)
except TypeError as e:
    print('TypeError', e)
print('%s|%r|%-12s|%12r' % (z, z, 1j, 2j))
