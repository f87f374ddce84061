# code.co_positions(): (line, end_line, col, end_col) per instruction; the
# ranges of expressions appear (instruction counts are not compared).
def f(a, b):
    return a.x + b[1]
ps = list(f.__code__.co_positions())
print(all(len(p) == 4 for p in ps), len(ps) > 0)
lines = {p[0] for p in ps if p[0] is not None}
print(lines == {1, 2} or lines == {2})
print((2, 2, 11, 14) in ps, (2, 2, 11, 21) in ps, (2, 2, 17, 21) in ps)
def g():
    return (1 +
            f(1,
              2))
ps = list(g.__code__.co_positions())
print((10, 11, 12, 16) in ps, (9, 11, 12, 16) in ps)
print(type(iter(ps)) is not None, all(p[2] is None or p[2] <= 100 for p in ps))
