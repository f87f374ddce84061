# hash(x) of a class with __hash__: CPython keeps any result that fits a C
# Py_hash_t (64 bits) as it is, -1 made -2, and reduces a bigger int as
# hash(int) does; dicts and sets find such objects.
class H:
    def __init__(self, v):
        self.v = v

    def __hash__(self):
        return self.v

    def __eq__(self, other):
        return isinstance(other, H) and self.v == other.v


values = (0, 1, -1, -2, 2**61 - 2, 2**61 - 1, 2**61, 2**62 - 1, 2**62, 2**62 + 5, 2**63 - 1,
          2**63, -2**61, -2**62, -2**62 - 1, -2**63, -2**63 - 1, 2**64 + 3, 10**30, -10**30, True, False)
for v in values:
    h = H(v)
    print(v, hash(h), h.__hash__() == v)

d = {H(v): i for i, v in enumerate(values)}
s = {H(v) for v in values}
print(len(d), len(s), all(d[H(v)] == i or v in (True, False) for i, v in enumerate(values)))
print(all(H(v) in s for v in values), H(12345) in s, H(2**62 + 6) in d)
print(hash((H(2**62), H(2**63 - 1))) == hash((H(2**62), H(2**63 - 1))))


class IntSub(int):
    pass


class R:
    def __hash__(self):
        return IntSub(2**62)


class Huge(int):
    def __hash__(self):
        return 2**62


print(hash(R()), hash(Huge(7)), {Huge(7): 1}[7] if hash(Huge(7)) == hash(7) else "no 7")


class Bad:
    def __hash__(self):
        return 1.5


try:
    hash(Bad())
except TypeError as e:
    print("TypeError", e)
