"""ast.parse of many constructs: ast.dump with positions (UTF-8 byte
columns), ast.unparse round trips, and the node classes' hierarchy, fields
and docs as CPython 3.11's _ast has them."""
import ast
src = '''
def f(a, /, b: int = 1, *c, d, e=2, **g) -> None:
    """doc"""
    x = [i for i in range(3) if i]
    return {k: v for k, v in g.items()}
class C(B, metaclass=M):
    @dec
    async def m(self):
        async with a as (b, c):
            await x
        async for q in z: pass
try:
    pass
except* ValueError as e:
    raise X from e
else:
    pass
finally:
    del a, b[1], c.d
match p:
    case [1, *rest] | {"k": _, **kw} if rest:
        pass
    case Point(x=0, y=-1) as pt:
        pass
    case None:
        pass
from ..m import (a as b, c)
import os.path as p
global q
lambda x, *y: x if y else f"{x!r:>{10}} {y=}"
a[1:2, ::3] @= -b ** ~c
s = 'é' + "€"; t = (é := 1)
while not a < b <= c is not d: break
else: continue
with (open(f) as g, h): nonlocal n
x: "int" = u"s"
print(*a, **b, sep='')
b'xy'; 1.5j; 10**100; ...
'''
t = ast.parse(src)
print(ast.dump(t, include_attributes=True, indent=1))
print(ast.unparse(t))
ns = {}
exec(compile(ast.parse("x = 1 + 2\nprint(x)"), "f", "exec"), ns)

for src in ["x = 1", "f(a)(b)[c].d", "{**a, 'b': 1}", "(yield)", "a if b else c", "not -x", "[*a, *b]", "{1, 2}", "x[a:b]",
            "def f[](): pass" if False else "async def f(): return [x async for x in y]", "@a.b(c)\nclass K: x: int",
            "import a.b, c as d", "assert x, 'm'", "raise", "try:\n  pass\nexcept (A, B):\n  pass",
            "f'{a!s:{b}}{c=}'", "x = 10_000 + 0x1f + 0o7 + 0b1 + 1e3 + 2J", "del x[0], y.z"]:
    t = ast.parse(src)
    back = ast.unparse(t)
    print(back, ast.dump(ast.parse(back)) == ast.dump(t))
print(ast.dump(ast.parse("1 + x", mode="eval"), include_attributes=True))
# format specs: the spec and its last literal span their own token, the rest the whole run
print(ast.dump(ast.parse('y = (f"{a:#x}:"\n     f" v={b:>{w}x{q!r}}>" "q")\nz = (f"{a}"\n "c" f"{x:{y}z}")'), include_attributes=True))
print(ast.dump(ast.parse("x", mode="single")))
import _ast
for name in sorted(n for n in dir(_ast) if not n.startswith("_")):
    c = getattr(_ast, name)
    if isinstance(c, type):
        print(name, c.__bases__[0].__name__, c._fields, getattr(c, "_attributes", None), c.__module__,
              [k for k in ("returns", "end_lineno", "type_comment", "kind", "level") if k in c.__dict__])
    else:
        print(name, c if isinstance(c, int) else type(c).__name__)
print(ast.expr.__doc__)
print(ast.expr_context.__doc__, "|", ast.Name.__doc__, "|", ast.Pass.__doc__, "|", ast.arguments.__doc__)
print(ast.PyCF_ONLY_AST, ast.PyCF_TYPE_COMMENTS, ast.PyCF_ALLOW_TOP_LEVEL_AWAIT)
print(ast.stmt.__doc__, ast.mod.__doc__, ast.pattern.__doc__, sep="\n")
