def hanoi(n, a="A", b="B", c="C", moves=None):
    if moves is None:
        moves = []
    if n:
        hanoi(n - 1, a, c, b, moves)
        moves.append((a, c))
        hanoi(n - 1, b, a, c, moves)
    return moves
m = hanoi(10)
print(len(m), m[:4])
def ackermann(m, n):
    if m == 0:
        return n + 1
    if n == 0:
        return ackermann(m - 1, 1)
    return ackermann(m - 1, ackermann(m, n - 1))
print(ackermann(2, 3), ackermann(3, 3))
def flatten(x):
    if isinstance(x, list):
        return [y for e in x for y in flatten(e)]
    return [x]
print(flatten([1, [2, [3, [4, [5]]]], 6, [[7]]]))
def permute(s):
    if len(s) <= 1:
        return [s]
    return [c + p for i, c in enumerate(s) for p in permute(s[:i] + s[i + 1:])]
print(permute("abcd")[:8], len(permute("abcde")))
def power_set(xs):
    if not xs:
        return [[]]
    rest = power_set(xs[1:])
    return rest + [[xs[0]] + r for r in rest]
print(sorted(power_set([1, 2, 3])))
def depth(n):
    return 0 if n == 0 else 1 + depth(n - 1)
print(depth(900))
