# ImportError: __init__ resets name/path not given; pickling and copying keep them.
import copy
import pickle

exc = ImportError('test', name='name', path='path')
print(exc.args, exc.msg, exc.name, exc.path)
exc.__init__()
print(exc.args, exc.msg, exc.name, exc.path)
for kwargs in ({}, {'name': 'n'}, {'path': 'p'}, {'name': 'n', 'path': 'p'}):
    orig = ImportError('test', **kwargs)
    print(orig.__reduce__())
    for proto in range(pickle.HIGHEST_PROTOCOL + 1):
        e = pickle.loads(pickle.dumps(orig, proto))
        print(proto, e.args, e.msg, e.name, e.path, end='; ')
    for c in copy.copy, copy.deepcopy:
        e = c(orig)
        print(e.args, e.msg, e.name, e.path, end='; ')
    print()
orig = ModuleNotFoundError('m', name='x')
orig.extra = 5
e = pickle.loads(pickle.dumps(orig))
print(type(e).__name__, e.name, e.extra, orig.__reduce__()[2] == {'extra': 5, 'name': 'x'})
