# Sizes and seeds that random takes from the user: getrandbits' and
# randbytes' counts are C ints in CPython (OverflowError, not a huge
# allocation or a wrapped n * 8), and a str seed is UTF-8 encoded strictly.
import random


def show(label, f):
    try:
        r = f()
    except Exception as e:
        print(label, '->', type(e).__name__, e)
    else:
        print(label, '->', r if not isinstance(r, bytes) else len(r))


r = random.Random(1)
for n in [2**31 - 1 + 1, 2**40, 2**62, 2**63]:
    show('getrandbits %d' % n, lambda: r.getrandbits(n))
for n in [2**28, 2**40, 2**61, 2**62, 2**63]:
    show('randbytes %d' % n, lambda: r.randbytes(n))
show('getrandbits -1', lambda: r.getrandbits(-1))
show('randbytes -1', lambda: r.randbytes(-1))
show('randbytes 5', lambda: r.randbytes(5))
show('seed surrogate', lambda: r.seed('\ud800'))
show('seed escaped byte', lambda: r.seed('\udcff'))
r.seed('ok \xe9')
print(r.random())
