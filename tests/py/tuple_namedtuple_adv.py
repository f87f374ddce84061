from collections import namedtuple
Card = namedtuple("Card", "rank suit")
hand = [Card("A", "S"), Card("10", "H"), Card("K", "D")]
print(hand[0], hand[1].suit, sorted(hand), [c.rank for c in hand])
print(Card._make(["Q", "C"]), hand[0]._replace(suit="H"), Card("2", "S") == ("2", "S"))
Point3 = namedtuple("Point3", ["x", "y", "z"], defaults=[0, 0])
p = Point3(1)
print(p, p._asdict(), p._fields, Point3._field_defaults, len(p), p[0], p[-1], p + (9,))
a, b, c = p
print(a, b, c, isinstance(p, tuple), type(p).__name__, hash(p) == hash((1, 0, 0)))
t = (1, "two", 3.0, None, (5,))
print(t[1:4], t[::-1], t.index(None), len(t), t * 2 == t + t, (1,) * 3, tuple(reversed(t))[0])
print(max((1, 2), (1, 3)), min([(2, "a"), (1, "z")]), sorted([(1, 2, 3), (1, 2), (1,)]))
