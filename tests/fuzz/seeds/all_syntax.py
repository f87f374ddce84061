x = 1 + 2 * 3
def f(a, b=2, *args, c, d=4, **kw) -> int:
    """doc"""
    return a if b else c
class A(B, metaclass=M):
    @dec
    def m(self): pass
for i, j in enumerate(range(10)):
    print(f"{i!r:>{j}} and {j=}")
else:
    pass
while x < 10 <= y:
    x += 1; break
try:
    import os.path as p, sys
    from ..a import (b as c, d,)
except (E, F) as e:
    raise X from e
except:
    pass
else:
    del a[1:2, ::3], b.c
finally:
    global g
with open(x) as f, g:
    y = [i for i in range(3) if i for j in k]
    z = {a: b for a, b in c}
    s = {*a, *b}
    d = {**a, 'b': 1}
    g = (x for x in y)
lambda x, /, y=1, *, z: (yield)
a[1:2] = b, *c = d
s = 'abc' "def" '''ghi
jkl''' r'\n' if not a and b or c else ...
n = 0x1F + 0o17 + 0b101 + 1_000 + 1.5e-3 + .5 + 1. + 12345678901234567890123
x: int = 5
(y): str
assert x, "msg"
print(-x ** -y, ~a, +b, a @ b, a // b % c << d >> e & f ^ g | h)
print(a is not b, a not in b, a in b, a is b, a != b)
f(*a, **b, c=d)
x = yield from z
nonlocal q
a.b.c[d](e)(f)
