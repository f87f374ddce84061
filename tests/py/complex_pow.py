# ** and pow() with complex operands, and float's negative base to a
# fractional power (a complex result): CPython 3.11's values and errors.
inf = float('inf')
nan = float('nan')


def t(expr):
    try:
        r = repr(eval(expr))
    except Exception as e:
        r = 'ERR %s: %s' % (type(e).__name__, e)
    print(expr, '->', r)


for e in ['1j ** 2', '1j ** 0.5', '2 ** 0.5j', '(-1) ** 0.5', '(-1.0) ** 0.5', '(-8.0) ** (1/3)', '(-8) ** (1/3)',
          '(-1e300) ** 1.5', '(-1e-300) ** 1.5', '(-2) ** -0.5', '(-0.0) ** 0.5', '(-1.0) ** 1e300', '(-1.0) ** inf',
          '(-1.5) ** 2.5', '(-2.0) ** 2', '(-2.0) ** -3.0', '(-2) ** 0.1', '(-3.7) ** -1.25', '(-10**20) ** 0.5',
          'pow(1j, 2)', 'pow(2, 1j)', 'pow(1j, -1)', 'pow(0j, 0)', 'pow(0j, -1)', 'pow(0j, 1j)', 'pow(0, 1j)',
          'pow(0.0, -1j)', 'pow(0j, 2)', 'pow(0j, 0.5)', 'pow(0j, complex(1, 0))', 'pow(0j, -0.0)', 'pow(0j, 0j)',
          'pow(0j, complex(-1, 0))', 'pow(0j, complex(1, 1))', 'pow(1e-200j, -2)', 'pow(1e300, 1j)',
          'pow(complex(0.0, 1e-310), -1)', 'pow(2, 3+0j)', 'pow(4, 0.5+0j)', 'pow(1j, 1e200)', 'pow(1e200j, 2)',
          'pow(1e200j, 2.5)', '(1+1j) ** 101', '(1+1j) ** 100', '(1+1j) ** -100', '(1+1j) ** 100.5', '(1+1j) ** (1+1j)',
          '(-1) ** (1/3)', '1j ** True', '1j ** -0.0', 'complex(inf, 0) ** 2', 'complex(inf, 0) ** 0.5',
          'complex(nan, 0) ** 0', 'complex(nan, 0) ** 1', '1j ** 101', '1j ** 100', '1j ** -100', '1j ** 2**64',
          '2j ** 1000', '(1+2j) ** 3', '(1+2j) ** -3', '(0.5+0.5j) ** 50', '(1.0000001+0j) ** 100',
          '1j ** nan', '1j ** inf', '2 ** complex(inf, 0)', '(1+1j) ** complex(0, inf)', '10**400 ** 1j',
          '1j ** 10**400', '(3+4j) ** 0.5', '(3+4j) ** -0.5', '(-4+0j) ** 0.5', 'complex(-4, -0.0) ** 0.5',
          '1.5 ** (2+1j)', 'True ** 1j', '1j ** False', '(2+3j) ** (4+5j)', '(-1-1j) ** (0.25-0.75j)']:
    t(e)

# three-argument pow: complex never takes a modulus
for e in ['pow(1j, 2, 3)', 'pow(2, 1j, 3)', 'pow(2, 2, 1j)', 'pow(2.0, 2, 1j)', 'pow(1j, 2.0, 3)', 'pow(2, 2.0, 1j)',
          'pow(1j, 1j, 1j)', 'pow(1j, 2, None)', 'pow(1j, "a", 3)', 'pow("a", 1j, 3)', 'pow(2, 3, 1j)',
          'pow(2.0, 3, 5)', 'pow(2, 3.0, 5)', 'pow(2, 3, 5.0)', 'pow(base=1j, exp=2)', 'pow(1j, exp=3, mod=None)']:
    t(e)

# in-place forms
z = 1 + 1j
z **= 2
print(z)
z *= 1j
print(z)
z /= 2
print(z)
z -= 1
z += 0.5
print(z)
