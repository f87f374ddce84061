def fb(n):
    return "FizzBuzz" if n % 15 == 0 else "Fizz" if n % 3 == 0 else "Buzz" if n % 5 == 0 else str(n)
print(" ".join(fb(i) for i in range(1, 31)))
rules = {3: "Fizz", 5: "Buzz", 7: "Bazz"}
out = []
for i in range(1, 106, 13):
    s = "".join(w for d, w in sorted(rules.items()) if i % d == 0)
    out.append(s or str(i))
print(out)
