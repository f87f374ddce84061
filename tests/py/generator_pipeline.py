def read_lines():
    data = ["10,apples", "5,pears", "bad line", "7,plums", "3,apples"]
    for d in data:
        yield d
def parse(lines):
    for line in lines:
        parts = line.split(",")
        if len(parts) != 2:
            continue
        yield int(parts[0]), parts[1]
def total_by(items):
    totals = {}
    for n, name in items:
        totals[name] = totals.get(name, 0) + n
        yield name, totals[name]
for name, running in total_by(parse(read_lines())):
    print(name, running)
squares = (x * x for x in range(10))
evens = (x for x in squares if x % 2 == 0)
print(list(evens))
print(sum(x * y for x, y in zip(range(5), range(5, 10))), any(c.isdigit() for c in "abc1"), "".join(c for c in "a1b2" if c.isalpha()))
