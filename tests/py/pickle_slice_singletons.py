# slice, Ellipsis and NotImplemented pickle and copy (their __reduce__), as in CPython.
import pickle, copy
for o in (slice(1, 2, 3), slice(None), Ellipsis, NotImplemented, range(3), type(None), type(Ellipsis), type(NotImplemented), None, ..., (1, ...), {1: slice(2)}):
    for p in range(6):
        try:
            r = pickle.loads(pickle.dumps(o, p))
            ok = r == o or r is o
        except Exception as e:
            ok = type(e).__name__ + ' ' + str(e)
        print(repr(o), p, ok)
    print(copy.copy(o) == o, copy.deepcopy(o) == o)
for o in (slice(1, 2, 3), Ellipsis, NotImplemented):
    try:
        print(o.__reduce__())
    except Exception as e:
        print(type(e).__name__, e)
    try:
        print(o.__reduce_ex__(2))
    except Exception as e:
        print(type(e).__name__, e)
