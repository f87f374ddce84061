def tokenize(src):
    tokens, i = [], 0
    while i < len(src):
        c = src[i]
        if c.isspace():
            i += 1
        elif c.isdigit():
            j = i
            while j < len(src) and (src[j].isdigit() or src[j] == "."):
                j += 1
            tokens.append(("NUM", float(src[i:j]) if "." in src[i:j] else int(src[i:j])))
            i = j
        elif c.isalpha() or c == "_":
            j = i
            while j < len(src) and (src[j].isalnum() or src[j] == "_"):
                j += 1
            tokens.append(("NAME", src[i:j]))
            i = j
        elif c in "+-*/()=":
            tokens.append(("OP", c))
            i += 1
        else:
            raise SyntaxError(f"bad char {c!r} at {i}")
    return tokens
def evaluate(tokens, env):
    pos = 0
    def peek():
        return tokens[pos] if pos < len(tokens) else (None, None)
    def take():
        nonlocal pos
        pos += 1
        return tokens[pos - 1]
    def atom():
        kind, v = take()
        if kind == "NUM":
            return v
        if kind == "NAME":
            return env[v]
        if v == "(":
            r = expr()
            take()
            return r
        if v == "-":
            return -atom()
    def term():
        r = atom()
        while peek()[1] in ("*", "/"):
            op = take()[1]
            r = r * atom() if op == "*" else r / atom()
        return r
    def expr():
        r = term()
        while peek()[1] in ("+", "-"):
            op = take()[1]
            r = r + term() if op == "+" else r - term()
        return r
    return expr()
env = {"x": 3, "y_2": 4.5}
for s in ["1 + 2 * 3", "(1 + 2) * 3", "x * x - y_2 / 3", "-x + 10", "2 * (x + (y_2 - 1.5)) / 4"]:
    print(s, "=", evaluate(tokenize(s), env))
try:
    tokenize("1 $ 2")
except SyntaxError as e:
    print("SyntaxError:", e)
