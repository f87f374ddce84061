"""compile() of malformed ast trees: CPython 3.11's validation errors
(identifiers, conversions, import levels, try without handlers, augmented
assignment targets, every pattern rule), or the compiler's SyntaxError for a
well-formed tree that is not valid Python."""
import ast
import re
def t(f):
    try: print(re.sub(r' at 0x[0-9a-f]+', '', str(f())))
    except Exception as e: print(type(e).__name__, e)
M = lambda *b: ast.fix_missing_locations(ast.Module(list(b), []))
X = lambda p: M(ast.Match(ast.Name('x', ast.Load()), [ast.match_case(p, None, [ast.Pass()])]))
t(lambda: compile(M(ast.Expr(ast.Name(None, ast.Load()))), 'f','exec'))
t(lambda: compile(M(ast.Expr(ast.Attribute(ast.Name('a', ast.Load()), None, ast.Load()))), 'f','exec'))
t(lambda: compile(M(ast.Expr(ast.FormattedValue(ast.Name('a', ast.Load()), 120, None))), 'f','exec'))
t(lambda: compile(M(ast.Expr(ast.JoinedStr([ast.Name('a', ast.Load())]))), 'f','exec'))
t(lambda: compile(M(ast.ImportFrom('m', [ast.alias('x')], -1)), 'f','exec'))
t(lambda: compile(M(ast.Expr(ast.Starred(ast.Name('a', ast.Load()), ast.Load()))), 'f','exec'))
t(lambda: compile(M(ast.Return(ast.Constant(1))), 'f','exec'))
t(lambda: compile(M(ast.Expr(ast.Slice())), 'f','exec'))
t(lambda: compile(X(ast.MatchValue(ast.Name('y', ast.Load()))), 'f','exec'))
t(lambda: compile(X(ast.MatchAs(ast.MatchAs(), None)), 'f','exec'))
t(lambda: compile(X(ast.MatchStar('a')), 'f','exec'))
t(lambda: compile(X(ast.MatchAs(None, '_')), 'f','exec'))
t(lambda: compile(X(ast.MatchSingleton(1)), 'f','exec'))
t(lambda: compile(X(ast.MatchValue(ast.Constant(None))), 'f','exec'))
t(lambda: compile(X(ast.MatchClass(ast.Name('C', ast.Load()), [], ['a'], [])), 'f','exec'))
t(lambda: compile(X(ast.MatchMapping([ast.Constant(1)], [ast.MatchAs()], 'rest')), 'f','exec') and 'ok')
t(lambda: compile(M(ast.Expr(ast.Yield())), 'f','exec'))
t(lambda: compile(M(ast.Expr(ast.Await(ast.Constant(1)))), 'f','exec'))
t(lambda: compile(M(ast.Break()), 'f','exec'))
t(lambda: compile(M(ast.Nonlocal(['x'])), 'f','exec'))
t(lambda: compile(M(ast.Expr(ast.Lambda(ast.arguments([], [ast.arg('a'), ast.arg('a')], None, [], [], None, []), ast.Constant(1)))), 'f','exec'))
t(lambda: compile(M(ast.Expr(ast.Call(ast.Name('f', ast.Load()), [], [ast.keyword('a', ast.Constant(1)), ast.keyword('a', ast.Constant(2))]))), 'f','exec'))
t(lambda: compile(M(ast.Expr(ast.Subscript(ast.Name('a', ast.Load()), ast.Slice(ast.Constant(1)), ast.Load()))), 'f','exec') and 'ok')
t(lambda: compile(M(ast.Expr(ast.Set([]))), 'f','exec') and 'ok')
t(lambda: compile(M(ast.Expr(ast.BoolOp(ast.And(), [ast.Constant(1)]))), 'f','exec'))
t(lambda: compile(M(ast.Expr(ast.Constant(1)), lineno=0), 'f','exec') and 'ok')
t(lambda: compile(M(ast.Try([ast.Pass()], [], [], [])), 'f','exec'))
t(lambda: compile(M(ast.Try([ast.Pass()], [], [ast.Pass()], [])), 'f','exec'))
t(lambda: compile(M(ast.With([], [ast.Pass()])), 'f','exec'))
t(lambda: compile(M(ast.ClassDef('C', [], [], [ast.Pass()], [])), 'f','exec') and 'ok')
t(lambda: compile(M(ast.AnnAssign(ast.Name('x', ast.Store()), ast.Name('int', ast.Load()), None, 2)), 'f','exec') and 'ok')
t(lambda: compile(M(ast.AugAssign(ast.Tuple([], ast.Store()), ast.Add(), ast.Constant(1))), 'f','exec'))
t(lambda: compile(M(ast.Assign([ast.Name('x', ast.Store())], ast.Constant(1), 'tc')), 'f','exec') and 'ok')
t(lambda: compile(M(ast.Expr(ast.Constant(1, 'u'))), 'f','exec') and 'ok')
t(lambda: compile(M(ast.Expr(ast.Constant(1), lineno='x')), 'f','exec'))
t(lambda: compile(M(ast.Expr(ast.Constant(1), lineno=2**70)), 'f','exec'))
t(lambda: compile(M(ast.ImportFrom(None, [ast.alias('*')], 0)), 'f','exec'))
t(lambda: compile(X(ast.MatchValue(ast.BinOp(ast.Constant(1), ast.Add(), ast.Constant(2j)))), 'f','exec') and 'ok')
t(lambda: compile(X(ast.MatchClass(ast.Constant(1), [], [], [])), 'f','exec'))
t(lambda: compile(X(ast.MatchMapping([ast.Name('k', ast.Load())], [ast.MatchAs()], None)), 'f','exec'))
t(lambda: compile(X(ast.MatchSequence([ast.MatchStar('a'), ast.MatchStar(None)])), 'f','exec'))
t(lambda: compile(X(ast.MatchOr([ast.MatchAs(None, 'a'), ast.MatchAs(None, 'b')])), 'f','exec'))
t(lambda: compile(M(ast.TryStar([ast.Pass()], [], [], [])), 'f','exec'))
t(lambda: compile(M(ast.Expr(ast.JoinedStr([ast.Constant('a'), ast.FormattedValue(ast.Constant(1), 114, ast.JoinedStr([ast.Constant('>4')]))]))), 'f','exec') and 'ok')
exec(compile(M(ast.Expr(ast.Call(ast.Name('print', ast.Load()), [ast.JoinedStr([ast.Constant('a'), ast.FormattedValue(ast.Constant(1), 114, ast.JoinedStr([ast.Constant('>4')]))])], []))), 'f','exec'))
t(lambda: compile(M(ast.Raise(None, ast.Constant(1))), 'f','exec'))
t(lambda: compile(M(ast.AnnAssign(ast.Attribute(ast.Name('a', ast.Load()), 'b', ast.Store()), ast.Name('int', ast.Load()), None, 1)), 'f','exec'))
t(lambda: compile(M(ast.Expr(ast.GeneratorExp(ast.Constant(1), []))), 'f','exec'))
t(lambda: compile(M(ast.Expr(ast.DictComp(ast.Constant(1), ast.Constant(2), []))), 'f','exec'))
# NamedExpr's target must be a Name, whatever its context (a comprehension's
# scope reads it as one; an Attribute there crashed the symbol table)
W = lambda tgt: M(ast.Expr(ast.ListComp(ast.NamedExpr(tgt, ast.Constant(5)),
                                        [ast.comprehension(ast.Name('x', ast.Store()), ast.Name('y', ast.Load()), [], 0)])))
t(lambda: compile(W(ast.Attribute(ast.Name('a', ast.Load()), 'b', ast.Store())), 'f','exec'))
t(lambda: compile(W(ast.Subscript(ast.Name('a', ast.Load()), ast.Constant(0), ast.Store())), 'f','exec'))
t(lambda: compile(W(ast.Starred(ast.Name('a', ast.Load()), ast.Load())), 'f','exec'))
t(lambda: compile(M(ast.Expr(ast.NamedExpr(ast.Tuple([ast.Name('p', ast.Store())], ast.Store()), ast.Constant(5)))), 'f','exec'))
t(lambda: compile(W(ast.Name('z', ast.Store())), 'f','exec') and 'ok')
# value patterns and mapping keys: CPython's literal rules (a complex literal
# is real +/- imaginary; a mapping key may be None, True or False)
C, neg = ast.Constant, lambda v: ast.UnaryOp(ast.USub(), v)
for v in [ast.BinOp(C(1), ast.Add(), C(2)), neg(C('s')), ast.BinOp(C('a'), ast.Sub(), C(2j)),
          ast.BinOp(C(1), ast.Add(), C(2j)), ast.BinOp(neg(C(1.5)), ast.Sub(), C(2j)), neg(C(2j)),
          neg(neg(C(1))), ast.BinOp(neg(C(1j)), ast.Add(), C(2j)), ast.UnaryOp(ast.UAdd(), C(1)),
          ast.BinOp(C(1), ast.Mult(), C(2j)), C(b'x'), C(...)]:
    t(lambda: compile(X(ast.MatchValue(v)), 'f', 'exec') and 'ok')
for k in [C(None), C(True), C(1), ast.BinOp(C(1), ast.Add(), C(2)), neg(C(3)), C(...)]:
    t(lambda: compile(X(ast.MatchMapping([k], [ast.MatchAs()], None)), 'f', 'exec') and 'ok')
# the node constructor's argument errors
t(lambda: ast.Name('x', id='y'))
t(lambda: ast.Name('a', 'b', 'c'))
t(lambda: ast.dump(ast.Name('x', ctx=ast.Load(), lineno=3), include_attributes=True))
