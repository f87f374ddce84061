# Imaginary literals: lexing, values, constant folding (the same values as
# run-time arithmetic, shared equal constants), and their SyntaxErrors.
import math

print(1j, 1J, 2.5e3J, 0j, 00j, 0777j, 09.5j, 1_000j, 1_0.5_0j, .5j, 5.j, 1e-3j, 1E+2J, 1e400j, 0e0j, 1.5E-320j)
print(type(1j).__name__, (1j).real, (1j).imag, -1j, +1j, --1j, -0j, -0.0j, 0j * -1)
print(1 + 2j, 1 - 2j, -1 + 2j, -1 - 2j, 1.5 + 0j, 0 - 0j, -0.0 - 0j, -0.0 + 0j, 3 * 1j, 1j * 1j, 2j * 3j, 1j - 1j)
print((1 + 2j) * (3 - 4j), (1 + 2j) / (3 - 4j), (1 + 2j) ** 2, 1 / 2j, 2 ** 1j, 10 ** 20 + 1j, 2 ** 53 + 1 + 1j)
print(1e308 * 10j, 1e308j * 1e308j, -(1e308j * 10), 0.1 + 0.2j, 0.1j + 0.2j, 1j + 2 ** 70)

# folded constants equal the run-time values, bit for bit
one, two, zero = 1, 2, 0.0
pairs = [(1 + 2j, one + two * 1j), (-1j, -(one * 1j)), (2 * 3j, two * 3j), ((1 + 2j) * (3 - 4j), (one + 2j) * (3 - 4j)),
         (-(0j), -(zero * 1j)), (1j - 1j, one * 1j - 1j), (-0.0 - 0j, -zero - 0j), (1e308 * 10j, 1e308 * (10 * one) * 1j)]
for a, b in pairs:
    print(repr(a), repr(b), math.copysign(1, a.real) == math.copysign(1, b.real),
          math.copysign(1, a.imag) == math.copysign(1, b.imag))


def consts():
    return 1 + 2j, -1j, 2 * 3j, (1 + 2j) * (3 - 4j), -(0j), 1j - 1j, (1j, 2j), 1 / 2j, (1e300 + 1e300j) / 1e-300j


print(consts.__code__.co_consts)
a = 1 + 2j
b = 1 + 2j
print(a is b, a == b, (1j, 2j) == (1j, 2j))
print(not 0j, not 1j, bool(-0j))
if 0j:
    print('0j is true?')
while 1j:
    print('1j is true')
    break

# SyntaxErrors and their positions
for src in ['1jx', '1j_', '1_j', '1e5jj', '0x1j', '0b1j', '0o7j', '1__j', '1e_5j', '1jj', '1.2.3j', '1e+j', '1j2',
            '1J_0', 'j1', '1.e5jx', '0_j', '1 j', '1j.real', '(1j).real', '1j.imag', '1 + 2 j', 'x = 1j = 2',
            'del 1j', '1j = x', 'f(1j=2)', 'for 1j in x: pass', '[1j] = x', 'import 1j', 'lambda 1j: 0']:
    try:
        c = compile(src, '<lit>', 'exec')
        print(repr(src), 'compiled')
    except SyntaxError as e:
        print(repr(src), 'SyntaxError', e.msg, e.lineno, e.offset)
print(eval('1j.real') if False else 'skip', eval('1.5j'), eval(' -2J '), eval('(3+4j).imag'))

# the compiler's SyntaxWarnings know complex literals (printed to stderr)
for src in ['x is 1j', 'x is not -1j', '1j()', '(1+2j)()', '1j[0]', '[1][1j]', '(1,2)[1+1j]', '"abc"[2j]',
            'x is (1j, 2)']:
    compile(src, '<w>', 'eval')
    print(src, 'compiled')
