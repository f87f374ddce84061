parts = []
for i in range(20):
    parts.append(str(i * i))
s = ",".join(parts)
print(s, len(s))
acc = ""
for ch in "abcdef":
    acc += ch.upper() + ch
print(acc)
table = "\n".join(f"{i:>3} | {i**2:>5} | {i**3:>7}" for i in range(1, 8))
print(table)
print("=" * 30, "-".center(30, "-"))
words = "the cat sat on the mat".split()
print(" ".join(sorted(set(words))), "_".join(w.capitalize() for w in words))
print("%s" % "".join(chr(ord("a") + i) for i in range(26)))
csv = "name,age\nann,30\nbob,25"
rows = [line.split(",") for line in csv.splitlines()]
print(rows, {r[0]: int(r[1]) for r in rows[1:]})
