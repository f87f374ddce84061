# random is CPython's random.py over the native _random (vm/modules/randommodule.c):
# signatures of its methods, subclass hooks (random() or getrandbits() overridden),
# state round trips, every seed type, exact sequences, SystemRandom, and the errors
# with CPython's messages.
import _random
import copy
import inspect
import pickle
import random
import warnings


def show(label, f):
    try:
        r = f()
    except Exception as e:
        print(label, '->', type(e).__name__, e)
    else:
        print(label, '->', r)


print('module', random.__name__, type(random._inst).__name__, random.seed.__self__ is random._inst,
      random.random.__self__ is random._inst, sorted(random.__all__) == sorted(set(random.__all__)))
print('mro', [c.__module__ + '.' + c.__qualname__ for c in random.Random.__mro__])
print('SystemRandom mro', [c.__qualname__ for c in random.SystemRandom.__mro__])
print('binomialvariate' in dir(random), hasattr(random, 'randbytes'), random.BPF, random.RECIP_BPF)

# ---- signatures: random.py's methods, and _random's from their text signatures ----
for name in ['seed', 'random', 'randrange', 'randint', 'choice', 'shuffle', 'sample', 'choices', 'uniform',
             'triangular', 'gauss', 'normalvariate', 'lognormvariate', 'expovariate', 'vonmisesvariate',
             'gammavariate', 'betavariate', 'paretovariate', 'weibullvariate', 'getstate', 'setstate',
             'getrandbits', 'randbytes', '_randbelow']:
    show('sig Random.' + name, lambda: inspect.signature(getattr(random.Random, name)))
for name in ['random', 'seed', 'getstate', 'setstate', 'getrandbits']:
    show('sig _random.Random.' + name, lambda: inspect.signature(getattr(_random.Random, name)))
show('sig module randrange', lambda: inspect.signature(random.randrange))
show('sig module sample', lambda: inspect.signature(random.sample))
print('_random', sorted(n for n in vars(_random.Random) if not n.startswith('__') or n in ('__init__', '__new__')))
print('_random doc', _random.Random.__doc__)
print('_random seed doc', _random.Random.seed.__doc__)

# ---- exact sequences ----
r = random.Random(12345)
print('random', [r.random() for _ in range(3)])
print('randrange', [r.randrange(10) for _ in range(8)], r.randrange(5, 500, 7), r.randrange(-10, 10),
      r.randrange(10 ** 30))
print('randint', [r.randint(-3, 3) for _ in range(8)])
print('choice', [r.choice('abcdefgh') for _ in range(8)], r.choice(range(10 ** 15)))
x = list(range(15))
r.shuffle(x)
print('shuffle', x)
print('sample', r.sample(range(100), 6), r.sample(['a', 'b', 'c', 'd'], 4), r.sample('xyz', 2, counts=[3, 1, 2]))
print('choices', r.choices('abc', k=6), r.choices('abc', weights=[5, 1, 0.5], k=6),
      r.choices(range(4), cum_weights=[1, 2, 3, 10], k=5))
print('floats', r.uniform(1, 2), r.triangular(0, 10, 3), r.gauss(0, 1), r.gauss(0, 1), r.normalvariate(5, 2))
print('dists', r.lognormvariate(0, 1), r.expovariate(1.5), r.vonmisesvariate(1, 4), r.vonmisesvariate(1, 0))
print('gamma', r.gammavariate(0.5, 2), r.gammavariate(1, 2), r.gammavariate(3, 2))
print('beta/pareto/weibull', r.betavariate(2, 3), r.paretovariate(2.5), r.weibullvariate(1, 1.5))
print('bits', r.getrandbits(0), r.getrandbits(1), r.getrandbits(31), r.getrandbits(32), r.getrandbits(33),
      r.getrandbits(64), r.getrandbits(65), r.getrandbits(200))
print('randbytes', r.randbytes(0), r.randbytes(7))

# ---- seeds ----
def first(seed, **kw):
    g = random.Random()
    g.seed(seed, **kw)
    return [g.random(), g.getrandbits(40)]


for s in [0, 1, -1, 2 ** 32 - 1, 2 ** 32, 2 ** 64 + 3, -(2 ** 100), 10 ** 50, True, False, 0.5, -2.25, 1e300,
          'hello', '', 'h\xe9llo \u20ac', b'hello', b'', bytearray(b'hello'), bytearray()]:
    print('seed', repr(s)[:30], first(s))
for s in ['hello', b'hello', '', 'nofar']:
    print('seed v1', repr(s), first(s, version=1))
print('seed int == abs', first(-12345) == first(12345), first(2 ** 80) == first(-(2 ** 80)))
print('seed float == hash', first(2.5) == first(hash(2.5)))


class BadAbs(int):
    def __abs__(self):
        return None


class MyInt(int):
    pass


print('seed int subclass', first(BadAbs(7)) == first(7), first(MyInt(-9)) == first(9))
ba = bytearray(b'abc')
random.Random(ba)
print('bytearray unchanged', ba)
g1, g2 = random.Random(), random.Random(None)
print('None seeds differ', g1.getrandbits(128) != g2.getrandbits(128))
print('_random seeds', _random.Random(8675309).random() == random.Random(8675309).random(),
      _random.Random().random() < 1.0)
raw = _random.Random()
raw.seed(42)
print('_random seed(42)', raw.random() == random.Random(42).random())
raw.seed()
raw.seed(None)
print('_random __new__ state', _random.Random.__new__(_random.Random, 1, 2, k=3).random(),
      _random.Random.__new__(_random.Random).getstate()[-1])

# ---- state ----
r = random.Random(99)
st = r.getstate()
print('state', st[0], len(st[1]), st[1][-1], st[2])
a = [r.random() for _ in range(700)]
r.setstate(st)
print('state round trip', a == [r.random() for _ in range(700)])
r.gauss(0, 1)
st = r.getstate()
print('gauss_next kept', st[2] is not None, r.gauss(0, 1) == st[2])
r.setstate(st)
print('gauss_next restored', r.gauss(0, 1) == st[2])
v2 = (2, st[1], None)
r.setstate(v2)
print('version 2 state', r.getstate()[1] == st[1])
raw = _random.Random(3)
inner = raw.getstate()
x = raw.random()
raw.setstate(inner)
print('_random state round trip', raw.random() == x, raw.getstate()[-1])
big = tuple(w + 2 ** 32 for w in inner[:-1]) + (inner[-1],)
raw.setstate(big)
print('words modulo 2**32', raw.getstate() == inner)
raw.setstate(inner[:-1] + (624,))
print('index 624', raw.getstate()[-1], raw.getrandbits(8) >= 0, raw.getstate()[-1])
for label, bad in [('not tuple', [0] * 625), ('short', (0,) * 3), ('str word', ('a',) + (0,) * 624),
                   ('float word', (1.0,) + (0,) * 624), ('negative word', (-1,) + (0,) * 624),
                   ('huge word', (2 ** 64,) + (0,) * 624), ('index 625', (0,) * 624 + (625,)),
                   ('index -1', (0,) * 624 + (-1,)), ('float index', (0,) * 624 + (1.0,)),
                   ('huge index', (0,) * 624 + (2 ** 64,))]:
    raw = _random.Random(3)
    show('_random setstate ' + label, lambda: raw.setstate(bad))
    print('  unchanged', raw.getstate() == inner)
r = random.Random(1)
show('setstate version', lambda: r.setstate((1, None, None)))
show('setstate None inner', lambda: r.setstate((2, None, None)))
show('setstate short', lambda: r.setstate((3, (1, 2, 3), None)))
show('setstate tuple of 2', lambda: r.setstate((3, st[1])))

# ---- subclasses: random.py's hooks pick _randbelow from what the class overrides ----
called = []


class OnlyRandom(random.Random):
    def random(self):
        called.append('random')
        return super().random()


class OnlyBits(random.Random):
    def getrandbits(self, k):
        called.append('getrandbits')
        return super().getrandbits(k)


class Both(OnlyRandom):
    def getrandbits(self, k):
        called.append('both.getrandbits')
        return random.Random.getrandbits(self, k)


class Fixed(random.Random):
    def random(self):
        return 0.5


for cls in [OnlyRandom, OnlyBits, Both]:
    called.clear()
    g = cls(7)
    vals = [g.randrange(100), g.choice('abcdef'), g.randint(1, 6)]
    x = list(range(8))
    g.shuffle(x)
    print('subclass', cls.__name__, vals, x, sorted(set(called)), g._randbelow.__func__.__name__)
f = Fixed(1)
print('Fixed', f.randrange(10), f.choice('abcd'), f.uniform(0, 10), f.sample(range(10), 3))
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter('always')
    print('Fixed big', f.randrange(2 ** 60), [(w.category.__name__, str(w.message)) for w in caught])


class Kw(random.Random):
    def __init__(self, newarg=None, seed=5):
        super().__init__(seed)
        self.newarg = newarg


k = Kw(newarg=1)
print('kwargs subclass', k.newarg, k.random() == random.Random(5).random())


class NoInit(random.Random):
    pass


print('no-init subclass', NoInit(3).random() == random.Random(3).random(), NoInit(x=3).random() == random.Random(3).random())


class RawSub(_random.Random):
    pass


show('raw subclass keyword', lambda: RawSub(x=3))
print('raw subclass', RawSub(3).random() == _random.Random(3).random(), hasattr(RawSub(), '__dict__'))


class RawSubInit(_random.Random):
    def __init__(self, a, b=None):
        self.b = b


g = RawSubInit(1, b=2)
print('raw subclass __init__', g.b, g.random(), g.getstate()[-1])

# ---- pickle and copy ----
r = random.Random(11)
r.random()
for proto in range(pickle.HIGHEST_PROTOCOL + 1):
    r2 = pickle.loads(pickle.dumps(r, proto))
    print('pickle', proto, type(r2).__name__, r2.getstate() == r.getstate())
print('copy', copy.copy(r).random() == copy.deepcopy(r).random() == r.random())
k2 = pickle.loads(pickle.dumps(Kw(newarg='z')))
print('pickle subclass', type(k2).__name__, k2.newarg, k2.random() == Kw().random())
for proto in (0, 2, pickle.HIGHEST_PROTOCOL):
    show('pickle _random %d' % proto, lambda: pickle.dumps(_random.Random(), proto))

# ---- SystemRandom ----
s = random.SystemRandom()
print('SystemRandom', 0 <= s.random() < 1, s.getrandbits(0), s.getrandbits(70) < 2 ** 70, len(s.randbytes(5)),
      0 <= s.randrange(10) < 10, s.seed(5), s.seed())
show('SystemRandom getstate', lambda: s.getstate())
show('SystemRandom setstate', lambda: s.setstate(None))
show('SystemRandom getrandbits -1', lambda: s.getrandbits(-1))

# ---- errors ----
r = random.Random(1)
errors = [
    ('Random(1, 2)', lambda: random.Random(1, 2)),
    ('Random(x=1)', lambda: random.Random(x=1).random() == random.Random(1).random()),
    ('Random(y=1)', lambda: random.Random(y=1)),
    ('_random.Random(1, 2)', lambda: _random.Random(1, 2)),
    ('_random.Random(x=1)', lambda: _random.Random(x=1)),
    ('_random.Random.__init__ kw', lambda: _random.Random.__init__(_random.Random(), x=1)),
    ('seed list', lambda: r.seed([1])),
    ('seed dict', lambda: r.seed({})),
    ('seed 3 args', lambda: r.seed(1, 2, 3)),
    ('_random seed list', lambda: _random.Random().seed([1])),
    ('_random seed 2 args', lambda: _random.Random().seed(1, 2)),
    ('_random seed kw', lambda: _random.Random().seed(n=1)),
    ('_random random arg', lambda: _random.Random().random(1)),
    ('_random getstate arg', lambda: _random.Random().getstate(1)),
    ('getrandbits none', lambda: r.getrandbits()),
    ('getrandbits -1', lambda: r.getrandbits(-1)),
    ('getrandbits float', lambda: r.getrandbits(1.0)),
    ('getrandbits huge', lambda: r.getrandbits(2 ** 31)),
    ('getrandbits str', lambda: r.getrandbits('8')),
    ('descriptor', lambda: _random.Random.random(1)),
    ('descriptor seed', lambda: _random.Random.seed('x', 1)),
    ('randrange 0', lambda: r.randrange(0)),
    ('randrange float', lambda: r.randrange(1.5)),
    ('randrange empty', lambda: r.randrange(10, 5)),
    ('randrange step 0', lambda: r.randrange(0, 10, 0)),
    ('randrange str', lambda: r.randrange('10')),
    ('randint str', lambda: r.randint('a', 3)),
    ('randint empty', lambda: r.randint(5, 1)),
    ('choice empty', lambda: r.choice([])),
    ('sample too big', lambda: r.sample(range(3), 4)),
    ('sample negative', lambda: r.sample(range(3), -1)),
    ('sample set', lambda: r.sample({1, 2, 3}, 2)),
    ('sample counts', lambda: r.sample('ab', 2, counts=[1])),
    ('choices weights', lambda: r.choices('ab', weights=[1], k=1)),
    ('choices both', lambda: r.choices('ab', [1, 1], cum_weights=[1, 2])),
    ('choices zero', lambda: r.choices('ab', [0, 0])),
    ('shuffle tuple', lambda: r.shuffle((1, 2))),
    ('gammavariate', lambda: r.gammavariate(0, 1)),
    ('betavariate', lambda: r.betavariate(0, 1)),
    ('randbytes -1', lambda: r.randbytes(-1)),
]
for label, f in errors:
    show(label, f)
raw = _random.Random()
show('_random attribute', lambda: setattr(raw, 'x', 1))
show('_random __dict__', lambda: raw.__dict__)
