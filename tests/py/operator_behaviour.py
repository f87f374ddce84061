# operator's getters and callers, CPython's behaviour.
import operator as o
class A: pass
a = A(); a.b = A(); a.b.c = 5; a.x = 1
def t(label, f):
    try: print(label, '->', f())
    except Exception as e: print(label, '->', type(e).__name__, e)
t('ag', lambda: (o.attrgetter('x')(a), o.attrgetter('b.c')(a), o.attrgetter('x', 'b.c')(a), repr(o.attrgetter('x', 'b.c'))))
t('ag bad', lambda: o.attrgetter(1))
t('ag bad2', lambda: o.attrgetter('x', 2))
t('ag missing', lambda: o.attrgetter('b.z')(a))
t('ig', lambda: (o.itemgetter(1)('abc'), o.itemgetter(0, 2)('abc'), o.itemgetter('k')({'k': 1}), repr(o.itemgetter(1, 'a')), o.itemgetter(slice(1, None))([1, 2])))
t('ig err', lambda: o.itemgetter(5)([1]))
t('mc', lambda: (o.methodcaller('split', ',')('a,b'), o.methodcaller('split', sep=',', maxsplit=0)('a,b'), repr(o.methodcaller('f', 1, x=2))))
t('mc bad', lambda: o.methodcaller(3))
t('concat', lambda: (o.concat([1], [2]), o.concat('a', 'b')))
t('concat bad', lambda: o.concat(1, 2))
t('indexOf', lambda: (o.indexOf([1, 2, 3], 3), o.countOf([1, 1, 2], 1)))
t('indexOf bad', lambda: o.indexOf([1], 5))
t('sorted', lambda: sorted([(1, 'b'), (0, 'c'), (1, 'a')], key=o.itemgetter(0, 1)))
