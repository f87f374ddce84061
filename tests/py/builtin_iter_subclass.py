# Subclasses of the built-in iterators (enumerate, filter, map, reversed,
# zip), of super and of _thread.RLock: __new__/__init__ overrides, extra
# attributes, super() calls, pickling and copying through __reduce__; and
# the built-ins that are not acceptable bases.
import copy
import pickle
import threading
import _thread


class E(enumerate):
    def __new__(cls, it, start=0, tag='x'):
        self = super().__new__(cls, it, start)
        self.tag = tag
        return self

    def __next__(self):
        i, v = super().__next__()
        return i * 10, v


e = E('abc', 1, tag='T')
print(type(e).__name__, e.tag, list(e), isinstance(e, enumerate))
print(next(iter(E([5]))), iter(e) is e)


class F(filter):
    pass


f = F(None, [0, 1, 2, '', 'a'])
f.x = 5
print(list(f), f.x, isinstance(f, filter), f.__dict__)


class M(map):
    def __init__(self, *args):
        self.nargs = len(args)


m = M(lambda a, b: a + b, [1, 2], [3, 4])
print(m.nargs, list(m))


class R(reversed):
    pass


# a sequence with __reversed__ gives back its own iterator, not an R
print(list(R([1, 2, 3])), type(R([1])).__name__, type(R(range(2))).__name__)


class Seq:
    def __len__(self):
        return 3

    def __getitem__(self, i):
        if i >= 3:
            raise IndexError(i)
        return i * i


r = R(Seq())
print(type(r).__name__, r.__length_hint__(), list(r))


class Z(zip):
    def pairs(self):
        return list(self)


print(Z('ab', 'cd').pairs(), list(Z('ab', 'cde')))
try:
    list(Z('ab', 'cde', strict=True))
except ValueError as ex:
    print('ValueError', ex)


class S(super):
    calls = 0

    def __getattribute__(self, name):
        S.calls += 1
        return super().__getattribute__(name)


class A:
    def f(self):
        return 'A'


class B(A):
    def f(self):
        return 'B' + S(B, self).f()


class C(B):
    def f(self):
        return 'C' + S(C, self).f()


print(C().f(), S.calls > 0, isinstance(S(B, B()), super), S(B, B()).__thisclass__.__name__)


class L(_thread.RLock):
    def __init__(self, name):
        self.name = name
        self.entered = 0

    def __enter__(self):
        self.entered += 1
        return super().__enter__()


lk = L('lk')
with lk:
    with lk:
        print('owned', lk._is_owned(), lk._recursion_count(), lk.name)
print('entered', lk.entered, lk._is_owned())
total = [0]


def work():
    for _ in range(200):
        with lk:
            total[0] += 1


threads = [threading.Thread(target=work) for _ in range(4)]
for t in threads:
    t.start()
for t in threads:
    t.join()
print('total', total[0], lk.entered)
print(repr(lk).split(' object')[0])

for t in (range, bool, slice, memoryview, type(iter([])), type(None)):
    try:
        class X(t):
            pass
        print('subclassed', t.__name__)
    except TypeError as ex:
        print('TypeError', ex)

# pickling and copying: the class and the position survive
def roundtrips(make, n=1):
    for proto in range(pickle.HIGHEST_PROTOCOL + 1):
        it = make()
        for _ in range(n):
            next(it)
        it2 = pickle.loads(pickle.dumps(it, proto))
        print(proto, type(it2).__name__, list(it2), list(it))


roundtrips(lambda: E([1, 2, 3], 5))
roundtrips(lambda: enumerate((1, 2, 3)))
roundtrips(lambda: Z([1, 2, 3], (4, 5, 6)))
roundtrips(lambda: zip([1, 2], [3, 4], strict=True))
roundtrips(lambda: M(pow, [1, 2, 3], [2, 2, 2]))
roundtrips(lambda: map(abs, [-1, -2, -3]))
roundtrips(lambda: F(None, [0, 1, 2, 3]))
roundtrips(lambda: filter(bool, [0, 1, 2, 3]))
roundtrips(lambda: R(Seq()))
roundtrips(lambda: reversed((1, 2, 3)))
roundtrips(lambda: iter([1, 2, 3]))
roundtrips(lambda: reversed([1, 2, 3]))
ex = enumerate([1])
list(ex)
print(list(pickle.loads(pickle.dumps(ex))), list(pickle.loads(pickle.dumps(iter([])))))
zz = Z([1, 2], [3, 4])
zz.note = 'n'
print(hasattr(copy.copy(zz), 'note'), list(copy.copy(zz)), list(copy.deepcopy(Z([[1]], [[2]]))))
print(E('ab').__reduce__()[0] is E, reversed([1, 2]).__reduce__()[2])
rv = reversed((1, 2, 3))
rv.__setstate__(10)
print(list(rv))
rv = reversed((1, 2, 3))
rv.__setstate__(-5)
print(list(rv))
li = iter([1, 2, 3])
li.__setstate__(-3)
print(list(li))

# the messages of the built-in constructors reach the subclasses
for call in (lambda: E(), lambda: M(abs), lambda: F(None), lambda: R(), lambda: R(5),
             lambda: Z(1), lambda: Z([], bad=1), lambda: S(1), lambda: E([], 'x')):
    try:
        call()
    except TypeError as ex:
        print('TypeError', ex)

# the iterators they wrap pickle too: str, range (and range itself)
import itertools
for make in (lambda: iter('héllo€'), lambda: iter(range(5)), lambda: iter(range(-5, 10**30, 7)),
             lambda: E('abc'), lambda: R(range(4))):
    it = make()
    next(it)
    it2 = pickle.loads(pickle.dumps(it))
    print(type(it2).__name__, list(itertools.islice(it2, 4)))
print(pickle.loads(pickle.dumps(range(1, 10, 3))), copy.copy(range(2)))
ri = iter(range(10))
ri.__setstate__(4)
print(list(ri))
si = iter('aé€b')
si.__setstate__(2)
print(list(si))


import operator
rs = reversed([1, 2, 3])
print(operator.length_hint(rs))
try:
    r2 = R(Seq())
    Seq.__len__ = lambda self: 1 // 0
    operator.length_hint(r2)
except ZeroDivisionError:
    print('ZeroDivisionError')
