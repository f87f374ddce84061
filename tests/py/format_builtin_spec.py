for v, spec in [(5, "03d"), (3.14159, ".2f"), ("ab", "^6"), (1234567, ","), (0.123, ".1%"), (255, "#x"), (-7, " d"), (12.5, "e"), (True, ""), (None, ""), ([1], "")]:
    print(repr(format(v, spec)))
try:
    format(1, "z")
except ValueError as e:
    print(e)
try:
    format("s", "d")
except ValueError as e:
    print(e)
