print(eval("1 + 2 * 3"), eval("[x * 2 for x in range(3)]"), eval("len('abc')"))
ns = {"a": 10}
print(eval("a + 1", ns), eval("b * 2", {"b": 4}), eval("a + b", {"a": 1}, {"b": 2}))
code = """
def sq(v):
    return v * v
result = sq(7)
"""
g = {}
exec(code, g)
print(g["result"], g["sq"](3), "sq" in g)
exec("q = 5")
print(q)
c = compile("x * 3", "<expr>", "eval")
print(eval(c, {"x": 4}))
c2 = compile("for i in range(3): out.append(i)", "<loop>", "exec")
out = []
exec(c2)
print(out)
try:
    eval("1 +")
except SyntaxError as e:
    print("SyntaxError", e.msg if hasattr(e, "msg") else e)
try:
    exec("raise ValueError('from exec')")
except ValueError as e:
    print(e)
