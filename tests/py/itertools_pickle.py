# itertools objects pickle and copy as CPython 3.11's do: every type, fresh,
# part-way through and exhausted, under every protocol, with copy.copy and
# copy.deepcopy; tee objects share their buffer; __reduce__ values.
import copy
import operator
import pickle
from itertools import (accumulate, chain, combinations, combinations_with_replacement, compress, count, cycle,
                       dropwhile, filterfalse, groupby, islice, permutations, product, repeat, starmap,
                       takewhile, tee, zip_longest)


def is_even(x):
    return x % 2 == 0


def second(a, b):
    return b


def quarter(x):
    return x // 4


def makers():
    return [
        ('count', lambda: count(3)), ('count_step', lambda: count(1.5, 0.25)), ('count_big', lambda: count(2**70, -3)),
        ('cycle', lambda: cycle('abc')), ('repeat', lambda: repeat('x', 5)), ('repeat_forever', lambda: repeat(7)),
        ('accumulate', lambda: accumulate([1, 2, 3, 4, 5])),
        ('accumulate_func', lambda: accumulate([3, 1, 4, 1, 5], max)),
        ('accumulate_initial', lambda: accumulate([1, 2, 3], initial=100)),
        ('accumulate_none', lambda: accumulate([None, 1, 2], second)),
        ('chain', lambda: chain('ab', [], 'cde')), ('chain_from', lambda: chain.from_iterable(['xy', 'z'])),
        ('compress', lambda: compress('ABCDEF', [1, 0, 1, 0, 1, 1])),
        ('dropwhile', lambda: dropwhile(is_even, [2, 4, 5, 6, 7])),
        ('takewhile', lambda: takewhile(is_even, [2, 4, 5, 6])),
        ('filterfalse', lambda: filterfalse(is_even, range(10))), ('filterfalse_none', lambda: filterfalse(None, [0, 1, '', 2])),
        ('starmap', lambda: starmap(operator.pow, [(2, 3), (3, 2), (10, 2)])),
        ('islice', lambda: islice(range(100), 3, 30, 4)), ('islice_stop', lambda: islice('abcdefg', 4)),
        ('islice_open', lambda: islice(count(), 2, None, 3)),
        ('groupby', lambda: groupby('aaabbcdddd')), ('groupby_key', lambda: groupby(range(12), quarter)),
        ('zip_longest', lambda: zip_longest('abcd', 'xy', fillvalue='-')),
        ('product', lambda: product('ab', range(3))), ('product_repeat', lambda: product([0, 1], repeat=3)),
        ('product_empty', lambda: product('ab', '')),
        ('permutations', lambda: permutations('abcd', 2)), ('permutations_full', lambda: permutations(range(3))),
        ('combinations', lambda: combinations('abcde', 3)),
        ('cwr', lambda: combinations_with_replacement('abc', 2)),
    ]


def take(it, n):
    out = []
    for _ in range(n):
        try:
            v = next(it)
        except StopIteration:
            break
        if isinstance(v, tuple) and len(v) == 2 and type(v[1]).__name__ == '_grouper':
            v = (v[0], list(v[1]))
        out.append(v)
    return out


def copiers():
    yield 'copy', copy.copy
    yield 'deepcopy', copy.deepcopy
    for proto in range(pickle.HIGHEST_PROTOCOL + 1):
        yield 'pickle%d' % proto, lambda it, p=proto: pickle.loads(pickle.dumps(it, p))


for name, make in makers():
    for skip in (0, 2, 5, 100):
        results = set()
        for cname, cp in copiers():
            it = make()
            take(it, skip)
            try:
                dup = cp(it)
            except Exception as e:
                results.add('%s error %s' % (cname, type(e).__name__))
                continue
            if cname == 'copy':
                # a shallow copy shares the inner iterators: read the copy only
                results.add('copy ' + repr(take(dup, 12)))
            else:
                a = take(dup, 12)
                b = take(it, 12)
                results.add(repr((a == b, a)))
        print(name, skip, sorted(results))

# a _grouper pickled with its groupby keeps reading the group
g = groupby('aaabbc')
k, grp = next(g)
next(grp)
g2, grp2 = pickle.loads(pickle.dumps((g, grp)))
print(k, list(grp2), [(k, list(v)) for k, v in g2])
print('stale grouper', pickle.loads(pickle.dumps(grp)).__class__.__name__ in ('_grouper', 'tuple_iterator'))

# tee objects: copies share one buffer, pickles keep the position
a, b = tee(iter(range(200)))
print(take(a, 70)[-3:], take(b, 3))
c = copy.copy(a)
print(take(c, 3), take(a, 3))
d = pickle.loads(pickle.dumps(b))
print(take(d, 5), take(b, 5))
e, f = pickle.loads(pickle.dumps((a, b)))
print(take(e, 3), take(f, 3), list(e)[-1], len(list(f)))
t = tee('abc', 3)
print(len(t), [list(x) for x in t], tee('x', 0))
print(type(tee([])[0]).__name__, type(tee([])[0].__reduce__()[2][0]).__name__)
it = iter([1, 2, 3])
print(tee(tee(it)[0], 2)[1].__class__.__name__)

# __reduce__ values with no object addresses in them
print(count(5).__reduce__(), count(5, 2).__reduce__(), count(1.5).__reduce__())
print(repeat('a', 3).__reduce__(), repeat('a').__reduce__(), repeat('a', -4).__reduce__())
p = product('ab', 'cd')
next(p)
next(p)
print(p.__reduce__())
c = combinations(range(5), 3)
take(c, 4)
print(c.__reduce__())
c = permutations(range(4), 2)
take(c, 5)
print(c.__reduce__())
print(chain().__reduce__()[:2], len(chain('a').__reduce__()[2]), type(chain('a').__reduce__()[2][0]).__name__)
z = zip_longest('ab', 'c', fillvalue=0)
take(z, 2)
print([type(x).__name__ for x in z.__reduce__()[1]], z.__reduce__()[2])
s = islice('abcdef', 1, 5, 2)
next(s)
print(s.__reduce__()[1][1:], s.__reduce__()[2])
for o in (repeat(1, 3), repeat(1)):
    try:
        print(o.__length_hint__())
    except TypeError as e:
        print('TypeError', e)
print(operator.length_hint(repeat(None, 9)), operator.length_hint(repeat(None), 4))

# __setstate__ errors
for call in (lambda: cycle('ab').__setstate__([[], 0]), lambda: cycle('ab').__setstate__(((), 0)),
             lambda: chain().__setstate__(([],)), lambda: chain().__setstate__(()),
             lambda: tee([])[0].__setstate__((1, 0)), lambda: tee([])[0].__setstate__(5),
             lambda: product('ab').__setstate__((1, 2)), lambda: permutations('ab').__setstate__(1),
             lambda: groupby('a').__setstate__((1,)), lambda: combinations('abc', 2).__setstate__((0,))):
    try:
        call()
        print('no error')
    except (TypeError, ValueError) as e:
        print(type(e).__name__, e)
c = cycle('defg')
c.__setstate__((list('abc'), 0))
print(take(c, 9))
p = permutations('abc')
p.__setstate__(((0, 0x1000, 2), (0, 0x1000, 1)))
print(take(p, 3))
