parts = [str(i) for i in range(1000)]
s = "".join(parts)
print(len(s), s[:20], s[-20:], s.count("9"), s.find("999"), hash(s) == hash("".join(parts)))
big = "abc" * 10000
print(len(big), big[29999], big.upper()[:6], len(big.replace("b", "")), big.split("c")[:2], big.endswith("abc"))
lines = "\n".join(f"line {i}" for i in range(500))
print(len(lines.splitlines()), lines.splitlines()[-1], sum(len(l) for l in lines.split("\n")))
