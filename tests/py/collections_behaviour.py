# collections behaviour, CPython's (Counter, namedtuple, ChainMap, OrderedDict; the module's code is tmpy's).
from collections import Counter, namedtuple, ChainMap, OrderedDict, deque, defaultdict
def t(label, f):
    try:
        print(label, '->', f())
    except Exception as e:
        print(label, '->', type(e).__name__, e)
c = Counter('abracadabra'); d = Counter(a=3, b=-2, z=4, r=2)
t('repr', lambda: repr(c))
t('repr empty', lambda: repr(Counter()))
t('repr unorderable', lambda: repr(Counter({'a': 1, 'b': 'x'})))
t('most_common', lambda: (c.most_common(), c.most_common(2), c.most_common(0), c.most_common(-1), c.most_common(10)))
t('elements', lambda: sorted(c.elements()))
t('elements order', lambda: list(Counter(a=2, b=0, c=-1, d=1).elements()))
for op in ['+', '-', '|', '&']:
    t('op ' + op, lambda: repr(eval('c %s d' % op)))
    t('op rev ' + op, lambda: repr(eval('d %s c' % op)))
t('pos', lambda: (repr(+d), repr(-d)))
for op in ['+=', '-=', '|=', '&=']:
    def f(op=op):
        x = Counter(a=3, b=-2, z=4, r=2); x0 = x
        exec('x %s c' % op, {'c': c}, loc := {'x': x})
        return repr(loc['x']), loc['x'] is x0
    t('iop ' + op, f)
t('eq', lambda: (c == Counter('abracadabra'), Counter(a=1) == Counter(a=1, b=0), Counter(a=1) != Counter(a=2), c == {'a': 5}))
t('le', lambda: (Counter(a=1) <= Counter(a=2), Counter(a=1) < Counter(a=1), Counter(a=1, b=0) < Counter(a=1, c=1), Counter(a=3) >= Counter(a=2), Counter(a=3) > Counter(a=3)))
t('cmp other', lambda: Counter(a=1) <= {'a': 2})
t('update', lambda: (c.copy().update('aaz') or None, repr(Counter(c, a=10)), repr(Counter({'x': 2}) + Counter())))
def upd():
    x = Counter(a=1); x.update({'a': 2, 'b': 1}); x.update(['b', 'c'], c=5); x.subtract('ab'); x.subtract({'c': 10}, z=1)
    return repr(x), x.total()
t('update2', upd)
t('missing', lambda: (c['nope'], 'nope' in c))
def dl():
    x = Counter(a=1); del x['a']; del x['zz']; return repr(x)
t('del', dl)
t('fromkeys', lambda: Counter.fromkeys('ab'))
t('copy type', lambda: type(Counter(a=1).copy()).__name__)
class MyC(Counter): pass
t('subclass', lambda: (repr(MyC('aab')), type(MyC('a') + MyC('b')).__name__, repr(MyC('a').copy())))

P = namedtuple('Point', 'x, y')
p = P(1, y=2)
t('nt', lambda: (p, p.x, p[1], P._fields, P.__doc__, P._field_defaults, p._asdict(), P.__match_args__, P.__name__, P.x.__doc__))
t('nt make', lambda: (P._make([3, 4]), P._make(range(2))))
t('nt make bad', lambda: P._make([1]))
t('nt replace', lambda: p._replace(y=5))
t('nt replace bad', lambda: p._replace(z=5, w=1))
t('nt new errs1', lambda: P(1))
t('nt new errs2', lambda: P())
t('nt new errs3', lambda: P(1, 2, 3))
t('nt new errs4', lambda: P(1, x=2))
t('nt new errs5', lambda: P(1, 2, q=2))
Q = namedtuple('Q', ['a', 'b', 'c'], defaults=[7, 8])
t('nt defaults', lambda: (Q(1), Q(1, c=0), Q._field_defaults, Q(a=0, b=1)))
t('nt defaults bad', lambda: namedtuple('R', 'a', defaults=[1, 2]))
t('nt rename', lambda: namedtuple('R', ['a', 'def', '_x', 'a', '1b', 'ok'], rename=True)._fields)
for bad in [('R', 'a b a'), ('R', 'a _b'), ('1R', 'a'), ('R', 'a def'), ('class', 'a'), ('R', ['a', 3])]:
    t('nt bad %r' % (bad,), lambda bad=bad: namedtuple(*bad)._fields)
t('nt module', lambda: (P.__module__, namedtuple('M', 'a', module='mymod').__module__))
t('nt getnewargs', lambda: p.__getnewargs__())
t('nt subclass', lambda: type('S', (P,), {})(5, 6))
t('nt hash', lambda: hash(P(1, 2)) == hash((1, 2)))

cm = ChainMap({'a': 1}, {'a': 2, 'b': 3}, {'c': 4})
t('cm', lambda: (cm['a'], cm['b'], cm['c'], len(cm), list(cm), cm.get('z', 9), 'c' in cm, bool(ChainMap({})), repr(cm)))
t('cm missing', lambda: cm['zz'])
t('cm items', lambda: (list(cm.keys()), list(cm.items()), list(cm.values())))
t('cm child', lambda: (repr(cm.new_child()), repr(cm.new_child({'q': 1})), repr(cm.parents)))
def cmset():
    x = ChainMap({'a': 1}, {'b': 2}); x['b'] = 5; del x['a']
    try: del x['b']
    except KeyError as e: r = str(e)
    x['b'] = 1
    return repr(x), r
t('cm set', cmset)
t('cm eq', lambda: (ChainMap({'a': 1}) == ChainMap({}, {'a': 1}), ChainMap({'a': 1}) == {'a': 1}))
t('cm pop', lambda: (ChainMap({'a': 1}).pop('a'), ChainMap({}).pop('a', 5)))
t('cm pop bad', lambda: ChainMap({}, {'a': 1}).pop('a'))
t('cm popitem bad', lambda: ChainMap({}).popitem())
t('cm copy', lambda: (repr(cm.copy()), cm.copy().maps[0] is cm.maps[0], repr(ChainMap.fromkeys('ab', 0))))
def cmor():
    x = ChainMap({'a': 1}); y = x | {'b': 2}; x |= {'c': 3}
    return repr(x), repr(y)
t('cm or', cmor)
t('cm clear', lambda: (lambda x: (x.clear(), repr(x)))(ChainMap({'a': 1}, {'b': 2})))
t('cm empty', lambda: repr(ChainMap()))

od = OrderedDict.fromkeys('abc', 0)
t('od', lambda: (repr(od), repr(OrderedDict()), od == OrderedDict.fromkeys('cba', 0), od == dict.fromkeys('cba', 0)))
t('od ops', lambda: (od.popitem(), od.popitem(last=False), repr(od)))
def odm():
    x = OrderedDict.fromkeys('abcd'); x.move_to_end('b'); x.move_to_end('d', last=False); return list(x)
t('od move', odm)
t('od ne', lambda: (OrderedDict(a=1) != OrderedDict(a=1), OrderedDict(a=1, b=2) != OrderedDict(b=2, a=1)))
class MyOD(OrderedDict): pass
t('od sub', lambda: (repr(MyOD.fromkeys('ab')), type(MyOD.fromkeys('a')).__name__))

dq = deque([1, 2, 3])
t('dq cmp', lambda: (dq == deque([1, 2, 3]), dq < deque([1, 3]), dq <= deque([1, 2, 3]), dq > deque([1]), dq >= deque([2]), dq == [1, 2, 3]))
t('dd', lambda: (lambda x: (x['a'].append(1), repr(x)))(defaultdict(list)))
t('cm defaultdict', lambda: (lambda dd: (ChainMap(dd, {'x': 5})['x'], dict(dd)))(defaultdict(int)))
class MissCM(ChainMap):
    def __missing__(self, key): return 'dflt'
t('cm sub missing', lambda: (MissCM({'a': 1})['b'], MissCM({'a': 1}).get('b', 3)))
t('cm ror', lambda: repr({'z': 0, 'a': 9} | ChainMap({'a': 1}, {'b': 2})))
t('cm len iter', lambda: (len(ChainMap({'a': 1, 'b': 2}, {'b': 3, 'c': 4})), list(ChainMap({'a': 1, 'b': 2}, {'c': 3, 'b': 4}))))
t('counter big', lambda: repr(Counter('the quick brown fox jumps over the lazy dog'.split()) + Counter(['the', 'cat'])))
t('counter ops types', lambda: (Counter(a=1) + {'a': 1}))
t('counter elements neg', lambda: list(Counter(a=-1, b=2.0 == 2 and 2).elements()))
