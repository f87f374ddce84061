# cmath at special values: every function over the grid of real and
# imaginary parts {-inf, -finite, -0, +0, +finite, +inf, nan} (and a few
# more finite classes), printing the exact result (signed zeros, inf, nan)
# or the exception: C99 Annex G's values, CPython's choices of unspecified
# signs, ValueError/OverflowError where CPython raises them.
import cmath
import math

inf = float('inf')
nan = float('nan')
parts = [-inf, -2.3, -1.0, -0.0, 0.0, 1.0, 2.3, inf, nan]
extra = [-1e308, 5e-324, 1e-310, 710.0, -710.0]
names = ['sqrt', 'exp', 'log', 'log10', 'acos', 'asin', 'atan', 'acosh', 'asinh', 'atanh', 'cos', 'sin', 'tan',
         'cosh', 'sinh', 'tanh']


def show(v):
    if isinstance(v, complex):
        return '%r,%r' % (v.real, v.imag)
    return repr(v)


def call(f, *args):
    try:
        return show(f(*args))
    except ValueError as e:
        return 'ValueError(%s)' % e
    except OverflowError as e:
        return 'OverflowError(%s)' % e


for n in names:
    f = getattr(cmath, n)
    print('==', n)
    for re in parts + extra:
        print(repr(re), ' '.join(call(f, complex(re, im)) for im in parts + extra))

for n in ['phase', 'polar', 'isinf', 'isnan', 'isfinite']:
    f = getattr(cmath, n)
    print('==', n)
    for re in parts + extra:
        print(repr(re), ' '.join(call(f, complex(re, im)) for im in parts + extra))

print('== rect')
for r in parts + extra:
    print(repr(r), ' '.join(call(cmath.rect, r, phi) for phi in parts + extra))

print('== abs')
for re in parts + extra:
    print(repr(re), ' '.join(call(abs, complex(re, im)) for im in parts + extra))

# real arguments are complex with a +0 imaginary part (the upper side of a cut)
print('== real arguments')
for n in names:
    f = getattr(cmath, n)
    print(n, ' '.join(call(f, x) for x in [-inf, -2.5, -1, -0.0, 0, 0.5, 1, True, 2.5, inf, nan]))

# log with a base
print('== log base')
for z in [0j, 1, -1, 1j, complex(inf, 0), complex(nan, 1), 2, 8, 1e-320]:
    print(repr(z), ' '.join(call(cmath.log, z, b) for b in [0, 1, 2, -1, 1j, 0.5, inf, nan, 1 + 1j, 10]))

print(cmath.pi, cmath.e, cmath.tau, cmath.inf, cmath.nan, cmath.infj, cmath.nanj, type(cmath.infj).__name__,
      cmath.pi == math.pi, cmath.e == math.e, cmath.tau == math.tau, math.copysign(1, cmath.nanj.real))
