"""Mutates ast trees (parsed from the files named on the command line plus
a match/async/f-string sample) and compiles them: a field set to another
node, a value of the wrong type, a list, or deleted. Every compile() must
return code or raise one of CPython's validation/compile errors; anything
else (a crash, another exception) fails the caller. Usage:
fuzz_ast_trees.py ITERATIONS SEED FILE..."""
import ast
import copy
import random
import sys

iterations, seed = int(sys.argv[1]), int(sys.argv[2])
random.seed(seed)
srcs = []
for f in sys.argv[3:]:
    with open(f, encoding="utf-8") as fh:
        src = fh.read()
    try:
        ast.parse(src)
        srcs.append(src)
    except SyntaxError:   # the programs that test SyntaxErrors
        pass
srcs.append("match x:\n case [1, *r] | {'a': 1, **kw}: pass\n case C(a=1, b=[_, *_]) as q if q: pass\n"
            " case -1 | 1+2j | None | a.b: pass\nf'{x!r:>{w}}'\nasync def f():\n"
            " async with a as b: await c\n async for i in j: yield [k async for k in l]\n"
            "try:\n pass\nexcept* E as e:\n del a[1:2], b.c\nelse:\n global g\n")
trees = [ast.parse(s) for s in srcs]
pool = [n for t in trees for n in ast.walk(t)]
values = [None, 1, -1, "x", "", "_", [], [None], 3.5, b"b", (1,), ast.Load(), ast.Store(), ast.Del(), ast.Add(),
          ast.Pass(), ast.Name("n", ast.Load()), ast.Constant(1), 10**30, 2**40]
allowed = (SyntaxError, TypeError, ValueError, SystemError, NotImplementedError, OverflowError, RecursionError)
outcomes = {}
for _ in range(iterations):
    tree = copy.deepcopy(random.choice(trees))
    nodes = list(ast.walk(tree))
    for _ in range(random.randint(1, 3)):
        node = random.choice(nodes)
        fields = list(node._fields) + list(getattr(node, "_attributes", ()))
        if not fields:
            continue
        name = random.choice(fields)
        r = random.random()
        if r < 0.4:
            setattr(node, name, random.choice(values))
        elif r < 0.8:
            setattr(node, name, copy.deepcopy(random.choice(pool)))
        elif r < 0.9:
            setattr(node, name, [copy.deepcopy(random.choice(pool))])
        elif name in node.__dict__:
            delattr(node, name)
    try:
        compile(tree, "fuzz", "exec")
        kind = "ok"
    except allowed as e:
        kind = type(e).__name__
    outcomes[kind] = outcomes.get(kind, 0) + 1
print("ok fuzz_ast_trees", sorted(outcomes.items()))
