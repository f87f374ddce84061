print(hash(0), hash(1), hash(-1), hash(-2), hash(2**61 - 1), hash(2**61), hash(2**64), hash(-(2**64)))
print(hash(0.0), hash(1.0), hash(1.5), hash(-0.5), hash(2.0**64), hash(True), hash(False), hash(None) == hash(None))
print(hash((1, 2)) == hash((1, 2)), hash(frozenset()) == hash(frozenset()), hash("abc") == hash("ab" + "c"))
for bad in [[], {}, set()]:
    try:
        hash(bad)
    except TypeError as e:
        print(e)
