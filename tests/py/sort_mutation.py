# A key function or __lt__ that changes the list being sorted: CPython raises
# "list modified during sort" only when the list got storage again (append,
# insert, slice assignment); clear(), del l[:], extend([]) and friends on the
# emptied list are no-ops and the sort succeeds.
def t(label, mut):
    l = [3, 1, 2]
    def k(x):
        mut(l)
        return x
    try:
        l.sort(key=k)
        print(label, 'ok', l)
    except Exception as e:
        print(label, type(e).__name__, e, l)

t('clear', lambda l: l.clear())
t('del slice', lambda l: l.__delitem__(slice(None)))
t('assign empty slice', lambda l: l.__setitem__(slice(None), []))
t('extend empty list', lambda l: l.extend([]))
t('extend empty tuple', lambda l: l.extend(()))
t('iadd empty', lambda l: l.__iadd__([]))
t('imul 0', lambda l: l.__imul__(0))
t('imul 3', lambda l: l.__imul__(3))
t('reverse', lambda l: l.reverse())
t('nested sort', lambda l: l.sort())
t('append', lambda l: l.append(1))
t('insert', lambda l: l.insert(0, 1))
t('assign slice', lambda l: l.__setitem__(slice(None), [1]))
t('extend list', lambda l: l.extend([5]))
t('pop', lambda l: l.pop() if l else None)
t('remove', lambda l: l.remove(7) if 7 in l else None)
t('copy', lambda l: l.copy())
t('len', lambda l: len(l))
t('del index', lambda l: l.__delitem__(0) if l else None)
t('assign empty range slice', lambda l: l.__setitem__(slice(0, 0), []))
t('del empty range', lambda l: l.__delitem__(slice(0, 0)))
def t2(label, f):
    try:
        r = f()
        print(label, 'ok', r)
    except Exception as e:
        print(label, type(e).__name__, e)

l = [3, 1, 2]
def k(x):
    l.clear()
    return x
t2('key clear', lambda: (l.sort(key=k), l)[1])

l = [3, 1, 2]
def k2(x):
    l.append(x)
    return x
t2('key append', lambda: (l.sort(key=k2), l)[1])

l = [3, 1, 2]
class C:
    def __init__(self, v): self.v = v
    def __lt__(self, o):
        l.clear()
        return self.v < o.v
    def __repr__(self): return 'C%d' % self.v
l = [C(3), C(1), C(2)]
t2('lt clear', lambda: (l.sort(), l)[1])
class D:
    def __init__(self, v): self.v = v
    def __lt__(self, o):
        l.append(0)
        return self.v < o.v
    def __repr__(self): return 'D%d' % self.v
l = [D(3), D(1), D(2)]
t2('lt append', lambda: (l.sort(), l)[1])
l = [3, 1, 2]
def k3(x):
    raise ValueError('boom')
t2('key raises', lambda: (l.sort(key=k3), l)[1])
l = [3, 1, 2]
t2('sorted key clear', lambda: sorted(l, key=lambda x: (l.clear(), x)[1]))
l = [3, 1, 2]
def k4(x):
    l[:] = [9, 9, 9, 9]
    return x
t2('key replace', lambda: (l.sort(key=k4), l)[1])
l = [C(3), C(1), C(2)]
t2('lt clear reverse', lambda: (l.sort(reverse=True), l)[1])
l = [3, 1, 2]
def k5(x):
    l.clear()
    raise KeyError('k')
t2('key clear raise', lambda: (l.sort(key=k5), l)[1])
l = []
t2('empty key', lambda: (l.sort(key=lambda x: l.append(1)), l)[1])
l = [1]
t2('single key clear', lambda: (l.sort(key=lambda x: l.clear()), l)[1])
