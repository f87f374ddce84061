# cmath at finite arguments: exact results (repr) of every function over
# values of every magnitude, both sides of each branch cut, near the unit
# circle and +-1, overflow thresholds; polar/rect/phase/isclose; argument
# conversion (__complex__, __float__, __index__) and error messages.
import cmath
import random

random.seed(2024)
names = ['sqrt', 'exp', 'log', 'log10', 'acos', 'asin', 'atan', 'acosh', 'asinh', 'atanh', 'cos', 'sin', 'tan',
         'cosh', 'sinh', 'tanh']


def sgn():
    return random.choice([1, -1])


vals = []
for i in range(60):
    vals.append(complex(random.uniform(-3, 3), random.uniform(-3, 3)))
    vals.append(complex(sgn() * 10 ** random.uniform(-320, 308), sgn() * 10 ** random.uniform(-320, 308)))
    vals.append(complex(sgn() * 10 ** random.uniform(-5, 5), sgn() * 10 ** random.uniform(-5, 5)))
    vals.append(cmath.rect(random.uniform(0.6, 1.8), random.uniform(-4, 4)))
for i in range(25):
    vals.append(complex(sgn() * (1 + random.uniform(-1e-9, 1e-9)), sgn() * 10 ** random.uniform(-320, -100)))
    vals.append(complex(sgn() * random.uniform(700, 712), random.uniform(-4, 4)))
    vals.append(complex(random.uniform(-30, 30), random.uniform(-30, 30)))
    vals.append(complex(sgn() * 10 ** random.uniform(150, 160), random.uniform(-3, 3)))
    vals.append(complex(sgn() * 10 ** random.uniform(-320, -300), sgn() * 10 ** random.uniform(-320, -300)))
# the branch cuts, from both sides (the sign of the zero part)
for x in [-3.5, -1.5, -1.0, -0.5, 0.5, 1.0, 1.5, 3.5, 1e300, -1e300]:
    vals += [complex(x, 0.0), complex(x, -0.0), complex(0.0, x), complex(-0.0, x)]
vals += [complex(1, 1e-300), complex(1, -1e-200), complex(710, 1), complex(-710, 2), complex(709.5, 0.5),
         complex(1e300, 1e300), complex(0.7, 0.7), complex(1.2, 1.0), complex(708.3964185322641, 1),
         complex(708.39641853226, 0.1), complex(1, 0), complex(-1, 0), complex(0, 1), complex(0, -1),
         complex(1e-160, 1e-160), complex(1, 1e-160), complex(-1, -1e-170), complex(0.5, 1e-320),
         # cosh/sinh of an x past overflow brought back in range by cos y, sin y < 0.8
         # (e is multiplied in last): finite results
         complex(710.7, 0.7853982), complex(-710.7, -2.3561945), complex(0.7853982, 710.7)]

for n in names:
    f = getattr(cmath, n)
    for z in vals:
        try:
            r = f(z)
            s = '%r %r' % (r.real, r.imag)
        except (ValueError, OverflowError) as e:
            s = '%s(%s)' % (type(e).__name__, e)
        print(n, repr(z), s)

for z in vals[:80]:
    try:
        ph = cmath.phase(z)
    except OverflowError as e:
        ph = 'OverflowError(%s)' % e
    try:
        po = cmath.polar(z)
    except OverflowError as e:
        po = 'OverflowError(%s)' % e
    print(repr(z), ph, po, cmath.rect(abs(z), cmath.phase(z) if not isinstance(ph, str) else 0),
          cmath.log(z, 2), cmath.log(z, 1j), cmath.isclose(z, z * (1 + 1e-10)), cmath.isclose(z, z * (1 + 1e-8)))
for z in [complex(1e300, 1e-300), complex(1e10, 1e-300), complex(1, 1e-310), complex(1e308, 1.7e308),
          complex(1e200, 1e-200), complex(-1e300, 1e-300)]:
    for f in (cmath.phase, cmath.polar):
        try:
            print(f.__name__, repr(z), f(z))
        except OverflowError as e:
            print(f.__name__, repr(z), 'OverflowError', e)
print(cmath.rect(2, cmath.pi), cmath.rect(-1, 1), cmath.rect(1e308, 0.5), cmath.rect(True, 2))

# isclose
for a, b, kw in [(1, 1, {}), (1, 1 + 1e-10, {}), (1j, 1j + 1e-10, {}), (1, 1.0000001, dict(rel_tol=1e-6)),
                 (0, 1e-10, {}), (0, 1e-10, dict(abs_tol=1e-9)), (complex(float('inf'), 0), complex(float('inf'), 0), {}),
                 (complex(float('inf'), 0), complex(float('inf'), 1), {}), (complex(float('nan'), 0), complex(float('nan'), 0), {}),
                 (1e308 + 1e308j, -1e308 - 1e308j, dict(rel_tol=1)), (1, 2, dict(rel_tol=-1)), (1, 2, dict(abs_tol=-1)),
                 (1, 2, dict(rel_tol=0.5)), (1, 2, dict(x=1)), (1, 2, dict(rel_tol='x')), (1, 'a', {})]:
    try:
        print(a, b, kw, cmath.isclose(a, b, **kw))
    except Exception as e:
        print(a, b, kw, type(e).__name__, e)
print(cmath.isclose(a=1, b=1), cmath.isclose(1j, b=1j, abs_tol=0.5))


# arguments: complex, float, int, __complex__, __float__, __index__
class C:
    def __complex__(self):
        return 2j


class F:
    def __float__(self):
        return 2.0


class I:
    def __index__(self):
        return 2


class BC:
    def __complex__(self):
        return 2


class Bad:
    def __complex__(self):
        raise KeyError('x')


class SubC(complex):
    pass


class SubF(float):
    pass


for label, f, args in [('sqrt str', cmath.sqrt, ('a',)), ('sqrt None', cmath.sqrt, (None,)),
                       ('sqrt ()', cmath.sqrt, ()), ('sqrt 2 args', cmath.sqrt, (1, 2)), ('sqrt C', cmath.sqrt, (C(),)),
                       ('sqrt F', cmath.sqrt, (F(),)), ('sqrt I', cmath.sqrt, (I(),)), ('sqrt BC', cmath.sqrt, (BC(),)),
                       ('sqrt Bad', cmath.sqrt, (Bad(),)), ('sqrt big', cmath.sqrt, (2 ** 2000,)),
                       ('sqrt SubC', cmath.sqrt, (SubC(-4, 0),)), ('sqrt SubF', cmath.sqrt, (SubF(-4),)),
                       ('sqrt bool', cmath.sqrt, (True,)), ('log 3 args', cmath.log, (1, 2, 3)),
                       ('log str base', cmath.log, (1, 'a')), ('log ()', cmath.log, ()), ('rect 1 arg', cmath.rect, (1,)),
                       ('rect complex', cmath.rect, (1j, 1)), ('rect str', cmath.rect, ('a', 1)),
                       ('rect I', cmath.rect, (1, I())), ('rect C', cmath.rect, (C(), 1)), ('phase str', cmath.phase, ('x',)),
                       ('phase C', cmath.phase, (C(),)), ('polar 2 args', cmath.polar, (1, 2)), ('polar I', cmath.polar, (I(),)),
                       ('isnan 2', cmath.isnan, (1, 2)), ('isinf C', cmath.isinf, (C(),)), ('isfinite str', cmath.isfinite, ('1',)),
                       ('exp list', cmath.exp, ([],)), ('acos C', cmath.acos, (C(),)), ('tanh F', cmath.tanh, (F(),))]:
    try:
        print(label, f(*args))
    except Exception as e:
        print(label, type(e).__name__, e)
for f in [cmath.sqrt, cmath.log, cmath.rect, cmath.phase, cmath.polar, cmath.isnan, cmath.exp, cmath.tanh]:
    try:
        f(z=1)
    except TypeError as e:
        print('TypeError', e)
print(sorted(n for n in dir(cmath) if not n.startswith('_')))
print(cmath.__name__, cmath.__doc__)
