"""Mutation fuzzer for tmpy's tokenizer, parser and compiler, run BY tmpy:
`tmpy-gil tests/fuzz/fuzz_compile.py SECONDS SEED [SEEDFILES...]`.

Each round takes a seed program, mutates it (byte flips, token and line
deletion, duplication and splicing, deep nesting, junk characters) and
compiles it with compile(). The only acceptable outcomes are a code object
or SyntaxError / RecursionError / MemoryError / ValueError (null bytes):
a crash, a hang or any other exception fails the run. Prints the number of
inputs tried."""
import random
import sys
import time

OK = (SyntaxError, RecursionError, MemoryError, ValueError)
TOKENS = ["(", ")", "[", "]", "{", "}", ":", ",", ".", "=", "==", "lambda", "yield", "def ", "class ",
          "if ", "else", "for ", "in ", "while ", "try:", "except", "finally:", "with ", "as ", "*", "**",
          "'", '"', '"""', "f'{", "}'", "\\", "\n", "    ", "\t", "#", "@", "->", ":=", "return ", "global ",
          "nonlocal ", "import ", "from ", "del ", "not ", "and ", "or ", "is ", "async ", "await ", "match ",
          "case ", "0x", "1e", "_", "é", "\x00", "\r", "b'", "r'", "rb'", "...", ";", "~", "^", "%", "!r"]


def mutate(src, rng):
    s = src
    for _ in range(rng.randint(1, 6)):
        op = rng.randrange(9)
        n = len(s)
        i = rng.randrange(n + 1)
        j = min(n, i + rng.randrange(1, 40))
        if op == 0 and n:
            s = s[:i] + s[j:]
        elif op == 1:
            s = s[:i] + rng.choice(TOKENS) + s[i:]
        elif op == 2 and n:
            s = s[:i] + s[i:j] * rng.randint(2, 5) + s[i:]
        elif op == 3:
            lines = s.split("\n")
            rng.shuffle(lines)
            s = "\n".join(lines)
        elif op == 4:
            depth = rng.choice([10, 50, 100, 199, 201, 500, 3000])
            k = rng.randrange(4)
            if k == 0:
                s = "x = " + "(" * depth + "1" + ")" * depth + "\n" + s
            elif k == 1:
                s = "x = " + "[" * depth + "]" * depth + "\n" + s
            elif k == 2:
                s = "x = " + "-" * depth + "1\n" + s
            else:
                body = ""
                for d in range(min(depth, 120)):
                    body += " " * d + "if x:\n"
                s = body + " " * min(depth, 120) + "pass\n" + s
        elif op == 5 and n:
            s = s[:i] + chr(rng.randrange(1, 0x3000)) + s[i + 1:]
        elif op == 6:
            s = s[:i] + " " * rng.randint(1, 9) + s[i:]
        elif op == 7 and n:
            k = rng.randrange(n)
            s = s[:i] + s[k:k + rng.randrange(1, 80)] + s[i:]
        else:
            s = s[:i] + "(" * rng.randint(1, 30) + s[i:]
    return s


def main():
    seconds = float(sys.argv[1]) if len(sys.argv) > 1 else 10.0
    rng = random.Random(int(sys.argv[2]) if len(sys.argv) > 2 else 1)
    seeds = []
    for path in sys.argv[3:]:
        with open(path, encoding="utf-8") as f:
            seeds.append(f.read())
    if not seeds:
        seeds = ["def f(a, *b, c=1, **d):\n    return [x for x in b if x] + {k: v for k, v in d.items()}\n",
                 "class C(B, metaclass=M):\n    @property\n    def p(self):\n        yield from (y async for y in z)\n",
                 "try:\n    with a as b, c:\n        pass\nexcept (E, F) as e:\n    raise X from e\nfinally:\n    del q\n"]
    end = time.monotonic() + seconds
    tried = 0
    while time.monotonic() < end:
        src = mutate(rng.choice(seeds), rng)
        try:
            compile(src, "<fuzz>", rng.choice(["exec", "exec", "eval", "single"]))
        except OK:
            pass
        tried += 1
    print("ok fuzz_compile: %d inputs" % tried)


main()
