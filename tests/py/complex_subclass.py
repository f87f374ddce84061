# class C(complex): construction, attributes, inherited arithmetic (results
# are plain complex), overridden dunders, __complex__ and __getnewargs__,
# copy, pickling support pieces, and complex values in other builtins.
import copy


class SubC(complex):
    pass


class R(complex):
    def __repr__(self):
        return 'R!'


class N(complex):
    def __new__(cls, a):
        return super().__new__(cls, a, a)


class P(complex):
    def __add__(self, other):
        return 'P.add'

    def __radd__(self, other):
        return 'P.radd'

    def __eq__(self, other):
        return 'P.eq'

    __hash__ = complex.__hash__


class WithInit(complex):
    def __init__(self, *args, tag=None):
        self.tag = tag

    def __new__(cls, *args, tag=None):
        return super().__new__(cls, *args)


class SS(complex):
    __slots__ = ()


class Polar(complex):
    @property
    def r(self):
        return abs(self)

    def double(self):
        return type(self)(self * 2)


class Conv:
    def __init__(self, v):
        self.v = v

    def __complex__(self):
        return self.v


s = SubC(1, 2)
print(s, repr(s), str(s), type(s).__name__, s.real, s.imag, s.conjugate(), type(s.conjugate()).__name__)
print(type(complex(SubC(2, 3))).__name__, SubC(2, 3) == 2 + 3j, hash(SubC(1, 2)) == hash(1 + 2j), {SubC(1, 0): 'a'}[1])
print(R(1), str(R(1)), [R(1)], f'{R(1)}', format(R(1), '.1f'), '%s %r' % (R(2), R(3)), '{}'.format(R(4)))
for e in ['SubC(1) + 1', '-SubC(1)', '+SubC(1)', 'abs(SubC(3, 4))', 'SubC(1) * SubC(2)', '1 / SubC(0, 1)',
          'SubC(2) ** 2', '2 ** SubC(0, 1)', 'SubC(1, 2).__getnewargs__()', '(1j).__getnewargs__()',
          '(1j).__complex__()', 'SubC(1).__complex__()', 'SubC("1+2j")', 'SubC(real=1, imag=2)', 'SubC()',
          'SubC(1j, 1j)', 'N(3)', 'P(1) + 1', '1 + P(1)', 'P(1) + P(2)', 'P(1) == 1', '1 == P(1)', 'P(1) - 1',
          'WithInit(1, 2, tag="t").tag', 'WithInit(1, 2, tag="t")', 'Polar(3, 4).r', 'Polar(1, 1).double()',
          'complex(Conv(1j), 2)', 'bool(SubC(0))', 'bool(SubC(0, 1))',
          'SubC(1, -0.0)', 'SubC(float("nan"), float("inf"))', 'isinstance(SubC(1), complex)',
          'issubclass(SubC, complex)', 'SubC.__mro__', 'SubC(1) is SubC(1)', 'sorted([SubC(1), 2j], key=abs)',
          'SubC.__new__(SubC, 5)', 'complex.__new__(SubC, 7j)', 'complex.__new__(SubC, "8j")',
          'SubC(1) < 2', 'SubC(1) // 2', 'divmod(SubC(1), 2)', 'type(N(2) + N(3)).__name__',
          'type(copy.copy(SubC(1, 2))).__name__', 'copy.copy(SubC(1, 2))', 'copy.deepcopy(SubC(1, 2))',
          'copy.copy(1 + 2j)', 'copy.deepcopy([1j, (2j,)])', 'copy.copy(N(4))']:
    try:
        r = repr(eval(e))
    except Exception as ex:
        r = 'ERR %s: %s' % (type(ex).__name__, ex)
    print(e, '->', r)

s.x = 5
print(s.x, s.__dict__)
try:
    SS(1).x = 1
except AttributeError as e:
    print('AttributeError', e)
try:
    (1j).x = 1
except AttributeError as e:
    print('AttributeError', e)
try:
    (1j).real = 2
except AttributeError as e:
    print('AttributeError', e)
try:
    del (1j).imag
except AttributeError as e:
    print('AttributeError', e)
p = Polar(3, 4)
print(p.__reduce_ex__(2)[1][1:] if False else 'skip', p.__getnewargs__(), complex(*p.__getnewargs__()))


class Meta(type):
    pass


class CM(complex, metaclass=Meta):
    def __format__(self, spec):
        return 'CM:' + complex.__format__(self, spec)


print(f'{CM(1, 1):.1f}', type(CM(1)).__name__, type(CM).__name__)
