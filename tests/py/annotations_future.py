# PEP 563: under from __future__ import annotations every annotation is stored as
# the text CPython's unparser gives (precedence-based parentheses, reprs of
# constants, f-strings), and none is evaluated.
from __future__ import annotations
order = []
def note(x):
    order.append(x)
    return x
def f(a: note("a"), *b: note("b"), c: int = note("default"), **d: dict[str, int]) -> note("r"):
    x: note("local") = 1
    return x
print(order, f.__annotations__, f(1))
m: note("m") = note("m value")
n: List[int]
class C:
    a: C
    b: "quoted" = 2
    c: Optional[C] = None
    def meth(self, other: C) -> C: ...
o = C()
o.attr: note("never") = 5
lst = [1, 2]
lst[note(0)]: note("never either")
print(order, __annotations__, C.__annotations__, C.meth.__annotations__)
import sys
class P:
    x: lambda: (yield)
print(P.__annotations__)

def g(a: lambda *a: 0, b: lambda x, /, y=1, *, z, **k: 0, c: a[1:2, ::3], d: a[(1, 2)], e: a[()], g: a[1,], h: a[1:2], i: (1).real, j: 1 .real, k: -(-1), l: 2**-1, m: (a, b), n: (), o: (1,), p: not a or b and c, q: a if b else (c if d else e), r: {**a, 'k': 2}, s: {1, 2}, t: [x async for x in y if z], u: (x for x in y), v: f(x for x in y), w: f(*a, b=1, **c), x: "it's", y: 'say "hi"', z: b'\x00\n', aa: 1e400, bb: 1j, cc: -1e400j, dd: ..., ee: 0x10, ff: 1_000, gg: 'é\u200b\x7f', hh: f'{a!r:>{w}} {{x}} {b=}', ii: a.b.c[d](e)(f), jj: a**b**c, kk: (a**b)**c, ll: a - (b - c), mm: (a - b) - c, nn: a < b < c, oo: a is not b, pp: a not in b, qq: ~a, rr: +a, ss: -a ** 2, tt: (-a) ** 2, uu: await_x, vv: {k: v for k, v in x}, ww: {x for x in y}, xx: a @ b // c % d, yy: a << b >> c & d ^ e | f, ab: None, ac: True, ad: 'a' 'b', ae: u'x', af: 12345678901234567890123) -> List[int]: pass
for k, v in g.__annotations__.items(): print(k, repr(v))
def h(a: f'{x:{y}.{z}f}', b: f'{ {1: 2}[1] }', c: f"{'q'!s:>3}{x!a}", d: 'tab\there\nnl\\bs', e: '\U0001f600\ud800',
      f: 1.5.real, g: 0.1 + 1e-5 - 2.5e300, i: lambda a=(1, 2), *, b=-1: a, j: (a, *b), k: [*a, *b], l: {**a},
      m: a[b:c, d], n: a[::], o: -1 ** -2, p: (not a) == b, q: (a or b) and (c or d), r: (a, b)[0],
      s: (lambda: 1)(), t: (a if b else c).d, u: a if (b if c else d) else e, v: 'a' f'b{c}d' 'e',
      w: f'{a}' '{b}', x: b'\xff"\'', y: f(a)(b=1)[c], z: (-1) .real) -> (yield_ or await_): ...
for k, v in h.__annotations__.items(): print(k, repr(v))
