x = None
print(x is None, x == None, x != 0, x is not False, not x, [None, 1].index(None), None in [None])
print(repr(None), str(None), type(None)(), {None: 1}[None], [None] * 3, bool(None), None.__class__.__name__)
try:
    None < 1
except TypeError as e:
    print(e)
try:
    None.attr
except AttributeError as e:
    print(e)
