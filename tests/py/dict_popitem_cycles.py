# popitem() gives its entry back to the next insert, but the index slot it
# frees stays a deleted marker: after a few insert + popitem cycles a lookup
# of a missing key must still stop (it looped forever when the markers
# filled the index without a resize).
d = {}
for i in range(40):
    d[i] = i
    d[i + 1000] = -i
    print(d.popitem(), 999 in d, d.get(-1), len(d))

# The same with string keys, several pops per round, and a table grown and
# drained again.
s = {}
for r in range(30):
    for j in range(5):
        s["k%d_%d" % (r, j)] = j
    for j in range(4):
        s.popitem()
    assert "missing" not in s
print(len(s), sorted(s)[:3])

big = {i: i for i in range(1000)}
while len(big) > 10:
    big.popitem()
for i in range(5000):
    big[-i - 1] = i
    big.popitem()
print(len(big), 12345 in big, list(big))

# popitem on an empty dict, and the order after mixed deletes
e = {}
try:
    e.popitem()
except KeyError as ex:
    print("KeyError", ex)
m = dict.fromkeys("abcdefgh")
del m["c"]
m.popitem()
m["z"] = 1
print(list(m), m.popitem(), list(m))
