# collections.deque against CPython 3.11: the API, its messages, subclasses,
# iteration checks, repr (recursive too) and pattern matching.
import copy
from collections import deque


def show(label, f):
    try:
        print(label, repr(f()))
    except Exception as e:
        print(label, type(e).__name__, e)


d = deque([1, 2, 3])
print(d, len(d), bool(d), bool(deque()), d.maxlen)
print(deque(), deque('abc'), deque(range(5), 3), deque(maxlen=2), deque([], 0))
print(deque(iterable=[1], maxlen=4))
show("bad maxlen", lambda: deque([], -1))
show("bad maxlen type", lambda: deque([], 'x'))
show("float maxlen", lambda: deque([], 1.5))
show("too many", lambda: deque([], 1, 2))
show("bad kw", lambda: deque(foo=1))
show("not iterable", lambda: deque(5))
print(type(d), type(d).__name__, type(d).__module__, deque.__name__)
show("hash", lambda: hash(d))
print(deque.__hash__)

d.append(4)
d.appendleft(0)
print(d)
print(d.pop(), d.popleft(), d)
show("pop empty", lambda: deque().pop())
show("popleft empty", lambda: deque().popleft())
show("pop arg", lambda: d.pop(1))
show("append none", lambda: d.append())
d.extend([5, 6])
d.extendleft([-1, -2])
print(d)
d.extend(d)
print(d)
d.extendleft(iter([100, 200]))
print(d)
d.clear()
print(d, len(d))

# maxlen discards
m = deque(maxlen=3)
for i in range(6):
    m.append(i)
    print(m)
for i in range(3):
    m.appendleft(-i)
    print(m)
m.extend(range(10, 20))
print(m)
m.extendleft('ab')
print(m)
z = deque(maxlen=0)
z.append(1)
z.extend([1, 2])
z.appendleft(3)
print(z, len(z))

# rotate
r = deque(range(7))
for n in (1, 2, -1, -3, 7, 0, 15, -15, 100):
    r.rotate(n)
    print(n, r)
r.rotate()
print(r)
deque().rotate(3)
show("rotate str", lambda: r.rotate('x'))
show("rotate many", lambda: r.rotate(1, 2))
big = deque(range(20))
big.extendleft(range(5))
big.rotate(12)
print(big)

# copy, count, index, insert, remove, reverse
c = deque([1, 2, 1, 3, 1], maxlen=10)
c2 = c.copy()
c3 = copy.copy(c)
print(c2, c3, c2 is c, c2 == c, c3.maxlen)
print(c.count(1), c.count(9), c.count(1.0))
print(c.index(1), c.index(1, 1), c.index(1, 3), c.index(3, -3), c.index(1, -100, 100))
show("index missing", lambda: c.index(7))
show("index range", lambda: c.index(3, 0, 2))
show("index none", lambda: c.index(1, None))
show("index noargs", lambda: c.index())
show("index toomany", lambda: c.index(1, 2, 3, 4))
show("rotate kw", lambda: c.rotate(n=1))
c.insert(0, 'a')
c.insert(100, 'z')
c.insert(-1, 'y')
c.insert(-100, 'b')
c.insert(3, 'm')
print(c)
show("insert full", lambda: c.insert(0, 'q'))
show("insert args", lambda: c.insert(0))
c.remove('m')
print(c)
show("remove missing", lambda: c.remove('m'))
c.reverse()
print(c)
e = deque()
e.reverse()
e.insert(5, 1)
e.insert(-5, 0)
print(e)

# indexing
g = deque('abcdef')
print(g[0], g[-1], g[3], g[-6])
show("index out", lambda: g[6])
show("index neg out", lambda: g[-7])
show("index str", lambda: g['a'])
show("slice", lambda: g[1:2])
g[0] = 'A'
g[-1] = 'F'
print(g)


def setbad():
    g[10] = 1


show("set out", setbad)
del g[1]
del g[-2]
print(g)


def delbad():
    del g[10]


show("del out", delbad)
print('A' in g, 'b' in g, 'x' in g)
print(g[True])

# comparisons
a, b = deque([1, 2]), deque([1, 3])
print(a == b, a != b, a < b, a <= b, a > b, a >= b, a == deque([1, 2]), a == [1, 2], a != [1, 2])
print(deque([1]) < deque([1, 0]), deque() == deque(maxlen=3))
show("lt list", lambda: a < [1, 2])

# + * += *=
print(a + b, (a + b).maxlen)
show("add list", lambda: a + [1])
show("radd list", lambda: [1] + a)
print(a * 3, 2 * a, a * 0, a * -1)
print(deque([1, 2], maxlen=3) * 3, (deque([1, 2, 3], maxlen=4) * 5).maxlen)
show("mul str", lambda: a * 'x')
show("mul float", lambda: a * 1.5)
x = deque([1])
y = x
x += [2, 3]
x += 'ab'
print(x, x is y)
x *= 2
print(x, x is y)
x *= 0
print(x, x is y)
x += x
bm = deque([1, 2, 3], maxlen=4)
bm *= 3
print(bm)
bm += range(10)
print(bm)

# iteration
it = deque([1, 2, 3])
print(list(it), list(reversed(it)), [v for v in it], sorted(it, reverse=True))
print(list(iter(deque())), list(reversed(deque())))
j = iter(it)
print(next(j))
it.append(4)
show("mutated next", lambda: next(j))
show("mutated again", lambda: next(j))
j = reversed(it)
print(next(j))
it.popleft()
show("mutated rev", lambda: next(j))


def loop():
    q = deque([1])
    for v in q:
        q.append(v)


show("mutated loop", loop)
j = iter(it)
it[0] = 'set'
print(list(j))
print(type(iter(it)).__name__, type(reversed(it)).__name__)

# repr
rr = deque([1, 'a', None])
rr.append(rr)
print(rr, repr(rr))
rm = deque([rr], maxlen=5)
print(rm)
nested = [deque([1]), deque([[2]])]
print(nested, str(deque(['x'])))
rl = deque()
lst = [rl]
rl.append(lst)
print(rl)


# subclasses
class D(deque):
    pass


class E(deque):
    def __init__(self, items, tag):
        super().__init__(items, 5)
        self.tag = tag

    def __repr__(self):
        return 'E<%s>' % list(self)


s = D([1, 2, 3])
print(s, type(s).__name__, isinstance(s, deque), len(s), s[1], s.maxlen)
s.append(4)
s.appendleft(0)
print(s.pop(), s.popleft(), s, list(reversed(s)))
s2 = s.copy()
print(type(s2).__name__, s2, s2 == s, s == deque([1, 2, 3]))
s3 = D('ab', maxlen=3)
print(s3, s3.copy(), type(s3.copy()).__name__, type(copy.copy(s3)).__name__)
print(type(s + s).__name__, s + s, type(s * 2).__name__, s * 2)
s += [9]
print(type(s).__name__, s)
s.x = 1
print(s.x, 3 in s)
t = E([1, 2], 'tag')
print(t, t.tag, t.maxlen, repr(t), str(t), type(t.copy()).__name__ if False else 'skip')
t.extend(range(10))
print(t, len(t))
print(deque.__len__(s), deque.append.__name__)
show("wrong self", lambda: deque.append([], 1))


# pattern matching: a sequence
def m(v):
    match v:
        case []:
            return 'empty'
        case [x]:
            return 'one %r' % (x,)
        case [1, *rest]:
            return 'starts with 1, rest %r' % (rest,)
        case [a, b, *_]:
            return 'two+ %r %r' % (a, b)
    return 'no'


for v in (deque(), deque([5]), deque([1, 2, 3]), deque('xyz'), D([7, 8]), deque([1])):
    print(m(v))
match deque([1, 2]):
    case deque():
        print('class pattern')
