# A key's __eq__ / __hash__ / __repr__ that mutates the set or dict being
# worked on: no crash, and CPython's results and errors.

def show(label, f):
    try:
        r = f()
    except Exception as e:
        print(label, '->', type(e).__name__, e)
    else:
        print(label, '->', r)


class K:
    """Keys with one hash; eq runs an action on the first `times` calls."""
    def __init__(self, name, action=None, times=1, h=1):
        self.name, self.action, self.times, self.h = name, action, times, h

    def __hash__(self):
        return self.h

    def __eq__(self, other):
        if self.action and self.times > 0:
            self.times -= 1
            self.action()
        return False

    def __repr__(self):
        return 'K(%s)' % self.name


def contents(c):
    return sorted(repr(x) for x in c)


# ---- sets ----
s = set()


class Clear:
    def __hash__(self):
        return 1

    def __eq__(self, o):
        s.clear()
        return False


s.add(Clear())
s.add(Clear())
print('clear during add', len(s))

for op in ['add', 'contains', 'discard', 'remove']:
    s = set()
    a = K('a', lambda: s.clear())
    s.add(a)
    b = K('b')
    if op == 'add':
        show('set ' + op, lambda: s.add(b))
    elif op == 'contains':
        show('set ' + op, lambda: b in s)
    elif op == 'discard':
        show('set ' + op, lambda: s.discard(b))
    else:
        show('set ' + op, lambda: s.remove(b))
    print('  now', contents(s))

# an __eq__ that grows the set past a resize while add probes
s = set()
grow = K('g', lambda: s.update(range(100, 140)))
s.add(grow)
s.add(K('n'))
print('grow during add', len(s), sorted(x for x in s if isinstance(x, int))[:3])

# an __eq__ that pops, then re-adds
s = {K('p', lambda: (s.pop(), s.add(7)))}
s.add(K('q'))
print('pop during add', contents(s))

# bulk operations whose comparisons clear the sets involved
for name, f in [
    ('update', lambda s, o: s.update(o)),
    ('ior', lambda s, o: s.__ior__(set(o))),
    ('and', lambda s, o: len(s & set(o))),
    ('sub', lambda s, o: len(s - set(o))),
    ('xor', lambda s, o: len(s ^ set(o))),
    ('issubset', lambda s, o: s.issubset(o)),
    ('issuperset', lambda s, o: s.issuperset(o)),
    ('isdisjoint', lambda s, o: s.isdisjoint(o)),
    ('eq', lambda s, o: s == set(o)),
    ('intersection_update', lambda s, o: s.intersection_update(o)),
    ('difference_update', lambda s, o: s.difference_update(o)),
    ('symmetric_difference_update', lambda s, o: s.symmetric_difference_update(o)),
]:
    s = set()
    s.add(K('x', lambda: s.clear(), times=3))
    s.add(K('y', h=2))
    other = [K('o%d' % i) for i in range(3)] + [K('z', h=2)]
    show('set ' + name, lambda: f(s, other))
    print('  now', contents(s))

# iteration while an element's __eq__ changes the size
s = {1, 2, 3, K('it')}
try:
    for x in s:
        s.add(K('new'))
except RuntimeError as e:
    print('set iteration', e)

# a __hash__ that mutates the set it is being added to
class H:
    def __hash__(self):
        s.clear()
        s.update(range(20))
        return 5

s = {1, 2}
s.add(H())
print('hash mutates', len(s))

# repr whose element repr clears the set
class R:
    def __repr__(self):
        s.clear()
        return 'R'
    def __hash__(self):
        return 3

s = {R(), 1, 2}
print('set repr', repr(s), len(s))

# ---- dicts ----
for op in ['setitem', 'getitem', 'delitem', 'contains', 'get', 'pop', 'setdefault']:
    d = {}
    d[K('a', lambda: d.clear())] = 1
    b = K('b')
    if op == 'setitem':
        show('dict ' + op, lambda: d.__setitem__(b, 2))
    elif op == 'getitem':
        show('dict ' + op, lambda: d[b])
    elif op == 'delitem':
        show('dict ' + op, lambda: d.__delitem__(b))
    elif op == 'contains':
        show('dict ' + op, lambda: b in d)
    elif op == 'get':
        show('dict ' + op, lambda: d.get(b, 'dflt'))
    elif op == 'pop':
        show('dict ' + op, lambda: d.pop(b, 'dflt'))
    else:
        show('dict ' + op, lambda: d.setdefault(b, 'dflt'))
    print('  now', contents(d.items()))

# grow past a resize during a lookup
d = {}
d[K('g', lambda: d.update((i, i) for i in range(50)))] = 0
d[K('n')] = 1
print('dict grow', len(d))

# setdefault compares once per colliding key, as CPython
calls = []
class C:
    def __init__(self, n):
        self.n = n
    def __hash__(self):
        return 9
    def __eq__(self, o):
        calls.append(self.n)
        return False
d = {C(1): 1}
d.setdefault(C(2), 2)
print('setdefault eq calls', calls)

# iteration: size change, and same size with other keys
d = {1: 1, 2: 2, 3: 3}
try:
    for k in d:
        d[k + 10] = 0
except RuntimeError as e:
    print('dict iteration', e)
d = {1: 1, 2: 2, 3: 3}
try:
    for k in d:
        del d[k]
        d[k + 10] = 0
except RuntimeError as e:
    print('dict iteration', e)
d = {1: 1, 2: 2}
try:
    for k, v in d.items():
        d.clear()
except RuntimeError as e:
    print('dict items iteration', e)
d = {1: 1, 2: 2}
try:
    for v in reversed(d.values()):
        d.popitem()
except RuntimeError as e:
    print('dict reversed iteration', e)

# == where a value's __eq__ clears the other dict
class V:
    def __eq__(self, o):
        d2.clear()
        return True
d1 = {1: V(), 2: 2}
d2 = {1: 0, 2: 2}
show('dict eq', lambda: d1 == d2)
print('  d2', d2)

# update from a dict that a key's __eq__ mutates
src = {}
src[K('s1')] = 1
src[K('s2', h=2)] = 2
dst = {}
dst[K('t1', lambda: src.__setitem__('extra', 3))] = 0
show('dict update mutated', lambda: dst.update(src))

# repr whose key repr clears the dict
class RK:
    def __repr__(self):
        d.clear()
        return 'RK'
d = {RK(): 1, 2: 2}
print('dict repr', repr(d), d)

# popitem / pop while comparing
d = {}
d[K('pi', lambda: d.popitem())] = 1
d['x'] = 2
show('dict popitem in eq', lambda: d.__setitem__(K('k2'), 3))
print('  now', contents(d.items()))

# views
d = {}
d[K('v', lambda: d.clear())] = 1
show('items contains', lambda: (K('w'), 1) in d.items())
d = {}
d[K('v', lambda: d.clear())] = 1
show('keys and', lambda: len(d.keys() & {K('w'), 2}))
d = {}
d[K('v', lambda: d.clear())] = 1
show('keys eq', lambda: d.keys() == {K('w')})
d = {}
d[K('v', lambda: d.clear())] = 1
show('keys isdisjoint', lambda: d.keys().isdisjoint([K('w')]))
print('done')
