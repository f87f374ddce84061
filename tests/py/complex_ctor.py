# complex(): every form CPython 3.11 accepts, and its errors and messages.


class F:
    def __float__(self):
        return 2.5


class I:
    def __index__(self):
        return 7


class Cx:
    def __complex__(self):
        return 3 + 4j


class CxNegZero:
    def __complex__(self):
        return complex(1, -0.0)


class BadC:
    def __complex__(self):
        return 3


class RaisingC:
    def __complex__(self):
        raise KeyError('from __complex__')


class FS(float):
    pass


class Both:
    def __complex__(self):
        return 1j

    def __float__(self):
        return 2.0


class BadF:
    def __float__(self):
        return 1


class FNegZero:
    def __float__(self):
        return -0.0


class SubC(complex):
    pass


class S(str):
    pass


class IntSub(int):
    pass


class Plain:
    def __repr__(self):
        return 'Plain()'


def show(args, label=None, **kw):
    try:
        r = repr(complex(*args, **kw))
    except Exception as e:
        r = 'ERR %s: %s' % (type(e).__name__, e)
    print(label if label is not None else repr(args) + (' ' + repr(kw) if kw else ''), '->', r)


# numbers
for a in [(), (1,), (1.5,), (True,), (2**70,), (1j,), (1, 2), (1.5, 2.5), (1j, 1j), (1 + 2j, 3 + 4j), (1, 1j),
          (1j, 1), (complex(1, -0.0),), (1, -0.0), (-0.0,), (-0.0, -0.0), (1j, -0.0), (complex(1, -0.0), 0),
          (float('nan'), float('inf')), (2**1100,), (1, 2**1100), (FS(1.5),), (FS(1.5), FS(-0.0)), (IntSub(3), 4),
          (SubC(1, 2),), (SubC(1, 2), 1), (1, SubC(1, 2)), (SubC(1, -0.0),), (False, False), (-1e308, 1e308)]:
    show(a)

# strings
for s in ['1+2j', ' 1+2j ', '(1+2j)', ' ( 1+2j ) ', '( 1+2j)', '1 + 2j', 'j', '-j', '+J', '1j', '1e3j', '1.5',
          'inf', '-infj', 'nanj', 'inf+infj', '-inf-nanj', '1_000+2_0j', '1__0', '', ' ', '()', '(1', '1)', '1+',
          '1+2', '1+2jj', '1+2j+3', '\u00a01+2j\u2003', '\uff11+\uff12j', '0x10', '1e', 'infinity+1j', '1.e5+.5j',
          '+1-1j', '--1', '1e500', '1e500j', '1\x00', '1_', '_1', '1_e5', '1_000j', 'inf_', '1_+2j', '\uff11_\uff12',
          ' 1_0 ', '(1_0)', '1_0.5_5e1_0j', '1.j', '.j', '1.5e-3J', 'J', '(j)', '( j )', 'nan', 'NaN+InFj',
          '1+nan', '+inf', 'infj+1', '1e1_0', '1+-2j', '1+ 2j', '1 +2j', '-(1+2j)', '(1+2j', '((1))', '1+2j)',
          '\t1\n', '1+infinityj', '1+infnj', '1.5.5', 'e5', '+', '-', '(', ')', '1j2', '0b1', '1+2jx', '\x1c1',
          '1\x1c', '\x0b1\x0c', '\u20001j', '(\u20001j\u2000)', '-0', '-0j', '-0-0j', '0-0j', '1e-400-1e-400j',
          '1-j', '-1+J', '(-1.5e+3-2.5E-3j)', '00001j', '0777', '1E+2J', '.5', '5.', '1+.5j', '1+5.j', '١٢j']:
    show((s,), repr(s))
show((S('1+2j'),), 'S(1+2j)')
show((S('x'),), 'S(x)')
show((S('1_'),), 'S(1_)')

# __complex__, __float__, __index__
for label, args in [('F', (F(),)), ('I', (I(),)), ('Cx', (Cx(),)), ('CxNegZero', (CxNegZero(),)),
                    ('BadC', (BadC(),)), ('RaisingC', (RaisingC(),)), ('Both', (Both(),)), ('BadF', (BadF(),)),
                    ('F, F', (F(), F())), ('I, I', (I(), I())), ('Cx, Cx', (Cx(), Cx())), ('Cx, 1', (Cx(), 1)),
                    ('Cx, -0.0', (CxNegZero(), -0.0)), ('1, FNegZero', (1, FNegZero())), ('FNegZero', (FNegZero(),)),
                    ('1, I', (1, I())), ('I, 1j', (I(), 1j)), ('1j, F', (1j, F())), ('BadF, 1', (BadF(), 1)),
                    ('1, BadF', (1, BadF()))]:
    show(args, label)

# type errors
for a in [('1', 2), (1, '2'), ('1', '2'), ([],), (None,), (1, None), (1, []), ({}, 1), (b'1',), (bytearray(b'1'),),
          (1, 2, 3), (Plain(),), (1, Plain()), (1j, 'x'), (S('1'), 1), (1, S('1')), (b'1', 1)]:
    show(a)

# keywords
for kw in [dict(real=1), dict(imag=2), dict(real=1, imag=2), dict(real='1'), dict(imag='1'), dict(real=1j, imag=1j),
           dict(x=1), dict(imag=-0.0), dict(real=-0.0)]:
    show((), **kw)
show((1,), real=2)
show((1,), imag=2)
show((1, 2), imag=3)

print(complex(1j) is complex(1j), type(complex(SubC(1))), type(complex(Cx())))
z = 1 + 2j
print(complex(z) is z, complex(z, 0) is z)
