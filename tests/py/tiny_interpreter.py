import operator
def tokenize(s):
    return s.replace("(", " ( ").replace(")", " ) ").split()
def parse(tokens):
    tok = tokens.pop(0)
    if tok == "(":
        lst = []
        while tokens[0] != ")":
            lst.append(parse(tokens))
        tokens.pop(0)
        return lst
    try:
        return int(tok)
    except ValueError:
        return tok
ENV = {"+": operator.add, "-": operator.sub, "*": operator.mul, "<": operator.lt, "=": operator.eq}
def ev(x, env=ENV):
    if isinstance(x, str):
        return env[x]
    if isinstance(x, int):
        return x
    op, *args = x
    if op == "if":
        c, a, b = args
        return ev(a, env) if ev(c, env) else ev(b, env)
    if op == "define":
        env[args[0]] = ev(args[1], env)
        return None
    if op == "lambda":
        params, body = args
        return lambda *vals: ev(body, {**env, **dict(zip(params, vals))})
    f = ev(op, env)
    return f(*[ev(a, env) for a in args])
prog = ["(define fact (lambda (n) (if (< n 2) 1 (* n (fact (- n 1))))))", "(fact 20)", "(define sq (lambda (x) (* x x)))", "(sq (sq 3))", "(if (= 1 1) 10 20)"]
for line in prog:
    r = ev(parse(tokenize(line)))
    if r is not None:
        print(r)
