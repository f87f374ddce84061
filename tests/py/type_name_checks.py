# A class name is C text: type() and __name__ assignment refuse a NUL
# (ValueError) and lone surrogates (UnicodeEncodeError), as CPython.


def show(label, f):
    try:
        r = f()
    except Exception as e:
        print(label, '->', type(e).__name__, e)
    else:
        print(label, '->', ascii(r))


for n in ['a\x00b', '\ud800', 'x\udcff', 'ok', '\xe9t\xe9']:
    show('type(%s)' % ascii(n), lambda: type(n, (), {}).__name__)


class A:
    pass


for n in ['a\x00b', '\ud800', 'B', '\xe9']:
    show('A.__name__ = %s' % ascii(n), lambda: setattr(A, '__name__', n))
    print('  now', ascii(A.__name__))
