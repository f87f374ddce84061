# An element's __repr__ that clears or grows the container being repr'd: no
# crash, and CPython's output (set repr shows the elements it had when it began).
import collections
def t(label, f):
    try: print(label, 'ok', f())
    except Exception as e: print(label, type(e).__name__, e)
class R:
    def __init__(self, act): self.act = act
    def __repr__(self):
        self.act(); return 'R'
    def __hash__(self): return 1
    def __eq__(self, o): return self is o
l = [1, 2, 3]; l.insert(1, R(lambda: l.clear())); t('list clear', lambda: repr(l))
l = [1, 2, 3]; l.insert(1, R(lambda: l.extend(range(5)) if len(l) < 20 else None)); t('list grow', lambda: repr(l))
l = [1, 2, 3]; l.insert(1, R(lambda: l.__setitem__(slice(None), ['x']))); t('list replace', lambda: repr(l))
d = {1: 1, 2: 2}; d[3] = R(lambda: d.clear()); d[4] = 4; t('dict clear', lambda: repr(d))
d = {1: 1, 2: 2}; d[3] = R(lambda: d.update({i: i for i in range(10, 30)})); d[4] = 4; t('dict grow', lambda: repr(d))
d = {1: 1}; d[R(lambda: d.pop(1, None))] = 5; t('dict key pop', lambda: repr(d))
s = {1, 2}; s.add(R(lambda: s.clear())); t('set clear', lambda: len(repr(s)))
s = {1, 2}; s.add(R(lambda: s.update(range(10, 40)))); t('set grow', lambda: len(repr(s)))
q = collections.deque([1, 2]); q.append(R(lambda: q.clear())); q.append(3); t('deque clear', lambda: repr(q))
q = collections.deque([1, 2]); q.append(R(lambda: q.extend(range(5)) if len(q) < 30 else None)); t('deque grow', lambda: repr(q))
od = collections.OrderedDict([(1, 1)]); od[2] = R(lambda: od.clear()); od[3] = 3; t('od clear', lambda: repr(od))
dd = collections.defaultdict(list, {1: 1}); dd[2] = R(lambda: dd.clear()); t('dd clear', lambda: repr(dd))
c = collections.Counter('aab'); t('counter', lambda: repr(c))
k = {1: 2}; ks = k.keys(); k[R(lambda: k.clear())] = 1; t('keys view clear', lambda: repr(ks))
v = {1: 2}; vs = v.values(); v[3] = R(lambda: v.clear()); t('values view clear', lambda: repr(vs))
it = {1: 2}; its = it.items(); it[3] = R(lambda: it.clear()); t('items view clear', lambda: repr(its))
l = [1, 2, 3]; l.insert(1, R(lambda: l.clear())); t('list str', lambda: str(l))
l = [1, 2, 3]; l.insert(1, R(lambda: l.clear())); t('list format', lambda: '{}'.format(l))
l = [1, 2, 3]; l.insert(1, R(lambda: l.clear())); t('list %', lambda: '%s' % (l,))
l = [1, 2, 3]; l.insert(1, R(lambda: l.clear())); t('tuple(list)', lambda: repr(tuple(l)))
ba = bytearray(b'abc'); t('ba repr', lambda: repr(ba))
l = [1, 2]; l.insert(1, R(lambda: l.clear())); t('ascii', lambda: ascii(l))
fs = frozenset([R(lambda: None)]); t('frozenset', lambda: repr(fs))
ns = __import__('types').SimpleNamespace(a=1); ns.b = R(lambda: ns.__dict__.update({'x%d' % i: i for i in range(20)})); t('ns grow', lambda: repr(ns))
