"""compile() of ast trees: trees built by hand and rewritten by a
NodeTransformer run; malformed trees raise CPython's errors (wrong node
class, missing field, wrong context, empty body, mismatched lengths); the
AST constructor's rules; copy, pattern matching on nodes."""
import re
import ast
def t(f):
    try: print(f())
    except Exception as e: print(type(e).__name__, re.sub(r' at 0x[0-9a-f]+', '', str(e)))
t(lambda: ast.Name(1,2,3))
t(lambda: ast.Name('x', id='y'))
t(lambda: ast.AST(1))
print(ast.Name('x', foo=3).__dict__)
M = lambda *b: ast.fix_missing_locations(ast.Module(list(b), []))
t(lambda: compile(ast.Module([ast.Expr(ast.Name('x', ast.Load()))], []), 'f','exec'))
t(lambda: compile(M(ast.Expr()), 'f','exec'))
t(lambda: compile(M(ast.Expr(ast.Name(1, ast.Load()))), 'f','exec'))
t(lambda: compile(M(ast.Expr(ast.Name('x', ast.Store()))), 'f','exec'))
t(lambda: compile(M(ast.Expr(ast.Pass())), 'f','exec'))
t(lambda: compile(ast.fix_missing_locations(ast.Module(ast.Expr(ast.Pass()), [])), 'f','exec'))
t(lambda: compile(M(ast.If(ast.Name('x',ast.Load()),[],[])), 'f','exec'))
t(lambda: compile(M(ast.Expr(ast.Constant([]))), 'f','exec'))
t(lambda: compile(ast.Name('x', ast.Load()), 'f','exec'))
t(lambda: compile(ast.Expression(ast.Name('x', ast.Load())), 'f','exec'))
t(lambda: compile(M(ast.Assign([ast.Name('x', ast.Load())], ast.Constant(1))), 'f','exec'))
t(lambda: compile(M(ast.Expr(ast.Compare(ast.Constant(1), [ast.Lt()], []))), 'f','exec'))
t(lambda: compile(M(ast.Expr(ast.Dict([None], []))), 'f','exec'))
t(lambda: compile(M(ast.Expr(ast.Name('None', ast.Load()))), 'f','exec'))
t(lambda: compile(M(ast.Expr(ast.BinOp(ast.Constant(1), ast.Load(), ast.Constant(2)))), 'f','exec'))
t(lambda: compile(M(ast.Expr(ast.Constant(1, lineno='a'))), 'f','exec'))
t(lambda: compile(ast.Module([ast.Pass()]), 'f','exec'))
t(lambda: compile(M(ast.Delete([ast.Name('x', ast.Load())])), 'f','exec'))
t(lambda: compile(M(ast.Expr(ast.Call(ast.Name('f', ast.Load()), [None], []))), 'f','exec'))
print(eval(compile(ast.fix_missing_locations(ast.Expression(ast.BinOp(ast.Constant(-5), ast.Add(), ast.Constant(10**30)))), 'e', 'eval')))
print(eval(compile(ast.fix_missing_locations(ast.Expression(ast.Constant(-10**30))), 'e', 'eval')))
class T(ast.NodeTransformer):
    def visit_Constant(self, n):
        if isinstance(n.value, int): return ast.copy_location(ast.Constant(n.value * 10), n)
        return n
    def visit_Name(self, n):
        if n.id == 'y': return ast.copy_location(ast.Name('z', n.ctx), n)
        return n
tree = T().visit(ast.parse("z = 5\nfor i in range(3):\n    y = i + 1\n    print(y, 'a')\nprint(y)"))
exec(compile(tree, '<t>', 'exec'), {})
print(ast.literal_eval("{'a': (1, 2.5, -3j), 'b': [None, True]}"))
print(ast.Load.__doc__, ast.expr.__doc__.splitlines()[:2], ast.Pass.__doc__, ast.arguments.__doc__, ast.stmt._attributes, ast.Name._fields, ast.Name.__match_args__, ast.MatchAs.end_lineno if hasattr(ast.MatchAs,'end_lineno') else 'noattr')
import copy, pickle
n = ast.parse("a + b").body[0]
print(ast.dump(copy.deepcopy(n)))
print(ast.Name().__dict__, ast.FunctionDef().returns, ast.Constant(1).kind)
t(lambda: exec(compile(ast.parse("print(1)"), 'x', 'single')))
t(lambda: exec(compile(ast.parse("1+", mode='eval'), 'x', 'eval')))
print(ast.parse("x", mode="single").__class__.__name__)
print(ast.dump(ast.parse("(a, *b) = c", mode="exec"), include_attributes=True))
i = ast.Interactive([ast.Expr(ast.Constant(7))]); ast.fix_missing_locations(i); exec(compile(i, 's', 'single'))
match ast.parse("x + 1").body[0].value:
    case ast.BinOp(ast.Name(id), ast.Add(), ast.Constant(v)):
        print("matched", id, v)

t(lambda: compile(M(ast.Expr(ast.Constant(1.5))), 'f', 'eval'))
t(lambda: compile(M(ast.Assign([ast.Tuple([ast.Name('a', ast.Store()), ast.Starred(ast.Name('b', ast.Load()), ast.Store())], ast.Store())], ast.Constant(1))), 'f', 'exec'))
t(lambda: compile(M(ast.Assign([ast.Constant(1)], ast.Constant(1))), 'f', 'exec'))
t(lambda: compile(M(ast.FunctionDef('f', ast.arguments([], [], None, [], [], None, [ast.Constant(1)]), [ast.Pass()], [])), 'f', 'exec'))
t(lambda: compile(M(ast.FunctionDef('f', ast.arguments([], [], None, [ast.arg('k')], [], None, []), [ast.Pass()], [])), 'f', 'exec'))
t(lambda: compile(M(ast.Match(ast.Name('x', ast.Load()), [ast.match_case(ast.MatchOr([ast.MatchAs()]), None, [ast.Pass()])])), 'f', 'exec'))
t(lambda: compile(M(ast.Expr(ast.Constant(b'\x00\xff'))), 'f', 'exec') and 'ok')
t(lambda: compile(M(ast.Expr(ast.Constant("\ud800 \u20ac"))), 'f', 'exec') and 'ok')
fn = ast.FunctionDef('g', ast.arguments([], [ast.arg('a')], ast.arg('rest'), [ast.arg('k')], [ast.Constant(5)], None, [ast.Constant(2)]),
                     [ast.Return(ast.Tuple([ast.Name('a', ast.Load()), ast.Name('rest', ast.Load()), ast.Name('k', ast.Load())], ast.Load()))], [])
ns = {}
exec(compile(M(fn), 'built', 'exec'), ns)
print(ns['g'](), ns['g'](1, 2, 3, k=4))
lam = ast.Expression(ast.Lambda(ast.arguments([], [ast.arg('x')], None, [], [], None, []),
                                ast.ListComp(ast.BinOp(ast.Name('x', ast.Load()), ast.Mult(), ast.Name('i', ast.Load())),
                                             [ast.comprehension(ast.Name('i', ast.Store()), ast.Call(ast.Name('range', ast.Load()), [ast.Constant(4)], []), [], 0)])))
print(eval(compile(ast.fix_missing_locations(lam), 'lam', 'eval'))(3))
try:
    exec(compile(ast.parse("def h():\n    return 1 / 0\nh()"), 'tb_file', 'exec'))
except ZeroDivisionError as e:
    tb = e.__traceback__
    while tb.tb_next: tb = tb.tb_next
    print(tb.tb_lineno, tb.tb_frame.f_code.co_name, tb.tb_frame.f_globals is globals())
