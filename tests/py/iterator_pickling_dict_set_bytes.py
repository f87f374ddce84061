# dict, set and bytes iterators pickle as CPython's (a copy of a dict or set iterator is drained; bytes keep their index).
import pickle
d = {'a': 1, 'b': 2, 'c': 3}
for m in ('keys', 'values', 'items'):
    it = iter(getattr(d, m)()); next(it)
    for proto in range(6):
        print(m, proto, list(pickle.loads(pickle.dumps(it, proto))))
    print(list(it))
    rit = reversed(getattr(d, m)()); next(rit)
    print(list(pickle.loads(pickle.dumps(rit))), list(rit))
s = {1, 2, 3}
it = iter(s); x = next(it)
print(sorted(pickle.loads(pickle.dumps(it))) == sorted(s - {x}), sorted(it) == sorted(s - {x}))
for b in (b"", b"abc", bytearray(b"xyz")):
    it = iter(b)
    print(type(pickle.loads(pickle.dumps(it))).__name__, list(pickle.loads(pickle.dumps(it))))
    for _ in it: pass
    print(list(pickle.loads(pickle.dumps(it))))
it = iter(b"abcd"); next(it)
print(it.__reduce__()); it.__setstate__(10); print(list(it))
it = iter(b"abcd"); it.__setstate__(-3); print(list(it))
dd = {1: 2}
it = iter(dd); dd[3] = 4
try:
    pickle.dumps(it)
except RuntimeError as e:
    print("RuntimeError", e)
