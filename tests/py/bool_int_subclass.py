print(True + True, True * 3, True / 2, -True, ~True, True << 3, True & 1, True | 2, abs(False), int(True), float(False))
print(True == 1, False == 0, isinstance(True, int), type(True + 1).__name__, str(True), repr(False))
print(bool(), bool(1), bool(-1), bool(0.0), bool("0"), bool([]), bool([[]]), True and 0, False or "", not None)
print([True, False].count(1), {True: "a", 1: "b"}, sum([True] * 10), max(True, 0), sorted([True, False, True]))
