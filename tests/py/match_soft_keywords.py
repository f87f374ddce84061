# `match`, `case` and `_` are soft keywords: names everywhere but at the
# start of a match statement and its case blocks.
match = 1
case = 2
_ = 3
print(match, case, _)
match += 1
print(match)


class match:
    case = "class attribute"

    def __init__(self, v):
        self.v = v

    def __call__(self, x):
        return ("called", self.v, x)

    def __getitem__(self, k):
        return ("item", k)

    def __mul__(self, other):
        return ("mul", other)

    def __sub__(self, other):
        return ("sub", other)


print(match.case)
m = match(5)
print(m(1), m[2], m * 3, m - 4)
match = m
print(match(1))  # a call, not a match statement
print(match[1])  # a subscript
print(match * 2, match - 3)
print(match.v)
match.v = 9
print(match.v)
match, case = case, match
print(match, type(case).__name__)
match = [1, 2]
match[0] = 10
print(match)
del match[0]
print(match)
match: int = 7
print(match)


def case(match, case=None):
    return match, case


print(case(1), case(match=2, case=3))
print([match for match in range(3)], {case: match for match, case in [(1, 2)]})
lambda match: match
print((lambda case: case * 2)(4))
match = {"match": "case"}
print(match["match"])


def f(*, match, case):
    return match + case


print(f(match=1, case=2))
import_names = []
for match in range(2):
    for case in range(2):
        import_names.append((match, case))
print(import_names)

# and at the start of a statement they still work as statements
match = "subject"
match match:
    case "subject":
        print("a match statement on a variable named match")
case = ["case"]
match case:
    case [case]:
        print("case captured", case)
match (match):
    case "subject":
        print("parenthesized subject")
match [match]:
    case [_]:
        print("list subject")
match -1:
    case -1:
        print("negative subject")
match {"k": 1}:
    case {"k": _}:
        print("dict subject")
match not True:
    case False:
        print("not-expression subject")
match lambda: 0:
    case _:
        print("lambda subject")
match match if match else case:
    case "subject":
        print("conditional subject")
match *"ab", "c":
    case ("a", "b", "c"):
        print("star subject")

# match statements inside other statements, in one-line bodies, in exec
if True:
    match 1:
        case 1: print("in if")
while match:
    match match:
        case str(): match = None
    print("in while", match)
try:
    match 0:
        case 0: raise KeyError("in try")
except KeyError as e:
    print("caught", e)
with open(__file__) as fh:
    match fh.readline().split():
        case ["#", "`match`,", *_]:
            print("in with")
ns = {}
exec("match 3:\n    case x if x > 2:\n        y = x * 2\n", ns)
print(ns["x"], ns["y"])
print(eval("match"), eval("case"))
code = compile("match [1, 2]:\n    case [a, b]: print('single', a + b)\n", "<single>", "single")
exec(code)
# the tokens are not keywords
import sys

print("match" in sys.modules["builtins"].__dict__, "match".isidentifier())
