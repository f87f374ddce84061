# The C operations of itertools.count, defaultdict and OrderedDict against
# CPython 3.11: values, reprs, subclasses, argument errors and messages.
import itertools as it
for args in [(),(5,),(5,2),(1.5,),(0,1.0),(0,1),(True,),(2,True),(1+2j,),(10**30,3), (0,-1),(0,0),(True,2)]:
    c=it.count(*args); print(repr(c), next(c), next(c), repr(c))
class C(it.count): pass
print(repr(C(3)), isinstance(C(3), it.count), type(C(2)).__name__)
for bad in [('a',),(1,'b'),(None,)]:
    try: it.count(*bad)
    except Exception as e: print(type(e).__name__, e)
try: it.count(1,2,3)
except Exception as e: print(type(e).__name__, e)
try: it.count(foo=1)
except Exception as e: print(type(e).__name__, e)
print(repr(it.count(step=3)), repr(it.count(start=2.5, step=0.5)))
print(it.count.__name__, type(it.count(1)).__name__, it.count.__module__)
c = it.count(2**62); print(next(c), next(c), next(c)); c=it.count(2**63-2); [next(c) for _ in range(3)]; print(repr(c))
print(list(zip(it.count(), 'abc')))
import collections as co
d = co.defaultdict(list); d['a'].append(1); d['b']; print(d, d.default_factory)
d = co.defaultdict(); 
try: d[(1,2)]
except KeyError as e: print('KeyError', e, e.args)
print(d.__missing__ if False else 'x', co.defaultdict(int).__missing__('q'))
dd = co.defaultdict(int); print(dd.__missing__(5), dd)
try: dd.__missing__()
except TypeError as e: print(e)
od = co.OrderedDict.fromkeys('abcde')
od.move_to_end('b'); print(list(od)); od.move_to_end('b', last=False); print(list(od)); od.move_to_end('e', False); print(list(od))
od.move_to_end('c', True); od.move_to_end('c'); print(list(od))
try: od.move_to_end('z')
except KeyError as e: print('KeyError', e)
try: co.OrderedDict().move_to_end('z')
except KeyError as e: print('KeyError', e)
print(od.popitem(), od.popitem(last=False), od.popitem(False), od)
try: co.OrderedDict().popitem()
except KeyError as e: print('KeyError', e)
try: od.move_to_end()
except TypeError as e: print(e)
try: od.popitem(1,2)
except TypeError as e: print(e)
o2 = co.OrderedDict(); 
for i in range(100): o2[i]=i
for i in range(0,100,3): del o2[i]
for i in range(0,100,7): o2.move_to_end(i, last=(i%2==0)) if i in o2 else None
print(list(o2)[:20], len(o2))
class OD(co.OrderedDict): pass
x=OD(a=1,b=2); x.move_to_end('a'); print(x, x.popitem(False))


def show(label, f):
    try:
        print(label, repr(f()))
    except Exception as e:
        print(label, type(e).__name__, e)


class Logged(co.defaultdict):
    def __setitem__(self, k, v):
        print("setitem", k, v)
        super().__setitem__(k, v)


lg = Logged(lambda: 'made')
print(lg['x'], dict(lg))
print(co.defaultdict(None), repr(co.defaultdict(int, a=1)), co.defaultdict(list, [(1, [2])]).copy())
show("no factory", lambda: co.defaultdict()['k'])
show("factory raises", lambda: co.defaultdict(lambda: 1 / 0)['k'])
show("not callable", lambda: co.defaultdict(5))
show("unhashable", lambda: co.defaultdict(int)[[1]])
dd = co.defaultdict(int)
dd.default_factory = list
dd['a'].append(1)
del dd.default_factory
show("deleted factory", lambda: dd['b'])
print(co.defaultdict(int).get('zz'), 'zz' in co.defaultdict(int))
d3 = co.defaultdict(int)
for w in 'the cat and the hat and the bat'.split():
    d3[w] += 1
print(sorted(d3.items()))

show("move unhashable", lambda: co.OrderedDict(a=1).move_to_end([1]))
show("popitem kw", lambda: co.OrderedDict(a=1, b=2).popitem(last=False))
show("move kw", lambda: co.OrderedDict(a=1, b=2).move_to_end(key='a'))
o = co.OrderedDict(a=1, b=2, c=3)
o.move_to_end('a', 0)
print(o, o == co.OrderedDict(a=1, b=2, c=3), o == co.OrderedDict(a=1, b=2, c=3) and False, dict(o) == {'a': 1, 'b': 2, 'c': 3})
for k in list(o):
    o.move_to_end(k, last=False)
print(list(o), list(reversed(o)))
o['z'] = 0
del o['b']
o.move_to_end('z', last=False)
print(o, len(o), o.popitem(), o.popitem(), o.popitem(), len(o))
big = co.OrderedDict((i, i * i) for i in range(1000))
for i in range(0, 1000, 2):
    big.move_to_end(i, last=False)
print(list(big)[:5], list(big)[-5:], len(big), big[998])
for i in range(300):
    big.popitem(last=i % 2 == 0)
print(len(big), next(iter(big)), next(reversed(big)))
