a = set("abracadabra")
b = set("alacazam")
print(sorted(a), sorted(b), sorted(a - b), sorted(a | b), sorted(a & b), sorted(a ^ b))
primes = {2, 3, 5, 7, 11, 13}
odds = set(range(1, 15, 2))
print(primes & odds, primes - odds, sorted(odds - primes), len(primes | odds))
seen = set()
dups = []
for x in [1, 2, 3, 2, 1, 4, 5, 4]:
    if x in seen:
        dups.append(x)
    seen.add(x)
print(dups, seen)
print(set([1, 2, 3]) == {3, 2, 1}, frozenset({1}) in {frozenset({1}): 1}, {1, 2} < {1, 2, 3})
s = set()
for i in range(100):
    s.add(i * 37 % 101)
print(len(s), min(s), max(s), sum(s))
for i in range(0, 100, 3):
    s.discard(i * 37 % 101)
print(len(s), sorted(s)[:10])
