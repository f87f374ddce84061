# complex arithmetic with int, float and complex: results, signed zeros,
# special values, errors and their messages (repr of every result).
import math
import operator

inf = float('inf')
nan = float('nan')


def t(expr):
    try:
        r = repr(eval(expr))
    except Exception as e:
        r = 'ERR %s: %s' % (type(e).__name__, e)
    print(expr, '->', r)


# comparisons: == and != only, exact against ints
for e in ['1j < 2j', '1j <= 1', '1 > 1j', '1j >= 1.0', '1j == 1j', '1j != 1j', '1+0j == 1', '1+0j == 1.0',
          '1+0j == True', '2**53+1 == complex(2**53+1)', 'complex(2**53) == 2**53', 'complex(2**53) == 2**53+1',
          '1j == "1j"', '1j == None', '1 == 1+0j', '1.0 != 1+0j', 'complex(nan, 0) == complex(nan, 0)',
          'complex(0, 1) == complex(-0.0, 1)', '10**400 == complex(1, 0)', 'complex(1e308, 0) == 10**400']:
    t(e)

# operations complex does not have
for e in ['1j // 1', '1j % 1', 'divmod(1j, 1)', '1 // 1j', '2.0 % 1j', 'round(1j)', 'int(1j)', 'float(1j)',
          'math.floor(1j)', 'math.sqrt(1j)', '~1j', '1j << 1', '1j & 1', '[1][1j]', '"%d" % 1j', '"%f" % 1j',
          '"%s" % 1j', '"%r" % (1j,)', '"%x" % 1j', 'range(1j)', 'hex(1j)', 'operator.index(1j)', '1j + "a"',
          '"a" + 1j', '1j * [1]', '[1] * 1j', '1j * "a"', 'None * 1j', '1j @ 1j', '1j - None', 'math.trunc(1j)',
          'math.isclose(1j, 1j)', 'complex.__lt__(1j, 2j)']:
    t(e)

# mixed arithmetic (a real operand is complex with a +0.0 imaginary part)
for e in ['1j * 2**1100', '1j + 10**400', '2**1100 / 1j', '-(1+2j)', '+(1+2j)', '-(0j)', '-complex(0.0, -0.0)',
          '1 - 1j', '1.5 - 0j', '0 - 0j', '-0.0 - 0j', '-0.0 + 0j', '0j * -1', '1j * 1j', '2.0 * 1j', '1j * 2',
          'True + 1j', '1j - True', '(1+2j) * (3-4j)', '(1+2j) / (3-4j)', '(1e308+1e308j) / (1e308+1e308j)',
          '(1+2j) - (1+2j)', '(1+2j) + (-1-2j)', '3 / (1+1j)', '1.5 / 2j', '(2+4j) / 2', '(2+4j) / 2.0',
          'complex(inf, 0) * 2', 'complex(inf, 0) * 2.0', 'complex(inf, 1) * complex(0, 1)', 'complex(nan, 1) + 1',
          'complex(1e308, 1e308) * 2', '1e308 * (2+2j)', '(1e-320+1e-320j) / 1e10', '1 / complex(1e-310, 1e-310)',
          '(1+1j) / complex(inf, 0)', '(1+1j) / complex(0, inf)', '(1+1j) / complex(nan, 0)',
          'complex(inf, inf) / (1+1j)', 'sum([1j, 2, 3.5])', 'sum([1j, 1j], 1j)', 'sum([0.1j] * 10)']:
    t(e)

# division by zero
for e in ['1/0j', '1j/0', '1j/0.0', '0j/0j', '1.0/0j', '1/complex(0.0, -0.0)', '(1+1j) / False',
          'complex(inf, 0) / 0j', 'complex(nan, nan) / 0j']:
    t(e)

# abs
for e in ['abs(complex(1e308, 1e308))', 'abs(complex(inf, nan))', 'abs(complex(nan, inf))', 'abs(complex(nan, 1))',
          'abs(-0j)', 'abs(3-4j)', 'abs(complex(-inf, 0))', 'abs(1e-320+1e-320j)', 'abs(complex(3e307, 4e307))',
          'abs(complex(1e308, 1e-308))', 'abs(complex(5e-324, 5e-324))']:
    t(e)

# hash: hash(re) + 1000003 * hash(im), so complex(x, 0) hashes as x
for e in ['hash(1j)', 'hash(complex(1, 1))', 'hash(-1j)', 'hash(complex(-1, 0))', 'hash(0.5+0.25j)',
          'hash(complex(inf, 0))', 'hash(complex(0, inf))', 'hash(complex(-2**62, 0))', 'hash(complex(1e300, 1e-300))',
          'hash(complex(2.5, 0)) == hash(2.5)', 'hash(complex(7, 0)) == hash(7)', 'hash(complex(-1, 0)) == hash(-1)',
          'hash(complex(0, -1))', 'hash(complex(1, -1))', 'hash(complex(-1, -1))', 'hash(complex(2**61, 3))']:
    t(e)

# truth, containers
for e in ['bool(0j)', 'bool(-0j)', 'bool(1j)', 'bool(complex(nan, 0))', 'not 0j', 'max([1j, 2j])', 'sorted([2j, 1j])',
          '{1j: 1, 1j: 2}', '{1: "a", 1+0j: "b", 1.0: "c"}', 'set([1, 1.0, 1+0j, 2j, 2j])', '1j in [1j]',
          '(1, 1j) < (1, 2j)', '[1j].index(1j)', '[1j, 2j].count(1j)', '{2j: 1}[complex(0, 2)]', 'min(1j, 1j)']:
    t(e)

# int, float and bool have real, imag and conjugate
for e in ['(1).real', '(1).imag', '(1).conjugate()', 'True.real', 'True.imag', 'True.conjugate()', '(2.5).real',
          '(2.5).imag', '(2.5).conjugate()', '(-0.0).imag', 'type((5).imag)', 'type(True.real)', '(10**30).imag',
          '(10**30).real', '(1j).real', '(1j).imag', 'type((1j).imag)', '(1-2j).conjugate()',
          'complex(0, -0.0).conjugate()', 'complex(nan, inf).conjugate()']:
    t(e)

# slot methods called directly
for e in ['1j.__add__(1)', '1j.__add__("a")', '1j.__radd__(1)', '1j.__rsub__(1)', '1j.__rtruediv__(2)',
          '1j.__rpow__(2)', '1j.__mul__(1j)', '1j.__pow__(2, 3)', '1j.__pow__(2)', '1j.__pow__(2, None)',
          '(1j).__complex__()', '1j.__getnewargs__()', '(1j).__format__("")', '(1j).__format__(".1f")',
          '(1j).__bool__()', '(1j).__abs__()', '(1j).__neg__()', '(1j).__pos__()', '(1j).__eq__(1)',
          '(1j).__lt__(1)', '(1j).__hash__() == hash(1j)', '(1.5).__pow__(2, 3)', 'complex.conjugate(1)',
          'complex.conjugate(1j)', 'complex.__new__(complex, 1, 2)', 'complex.__new__(int)', 'complex.__new__(1)',
          'type(1j)("3j")', 'complex.__name__', 'complex.__doc__[:30]', 'complex.__module__', 'isinstance(1j, complex)',
          'isinstance(1, complex)', 'issubclass(bool, complex)', 'type(1j).__mro__', 'complex.__bases__',
          '[n for n in dir(1j) if not n.startswith("_")]', 'hasattr(1j, "__float__")', 'hasattr(1j, "__int__")',
          'hasattr(1j, "__floordiv__")', 'hasattr(1j, "__round__")', 'hasattr(complex, "__complex__")']:
    t(e)
