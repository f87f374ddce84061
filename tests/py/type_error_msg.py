try:
    "a" + 1
except TypeError as e:
    print(e)
try:
    1 + "a"
except TypeError as e:
    print(e)
try:
    len(5)
except TypeError as e:
    print(e)
try:
    n = None
    n()
except TypeError as e:
    print(e)
try:
    [1, 2] < "a"
except TypeError as e:
    print(e)
try:
    {}[[1]] = 2
except TypeError as e:
    print(e)
try:
    def f(a, b): pass
    f(1)
except TypeError as e:
    print(e)
try:
    f(1, 2, 3)
except TypeError as e:
    print(e)
try:
    f(1, c=2)
except TypeError as e:
    print(e)
try:
    (1).foo
except AttributeError as e:
    print(e)
try:
    int("x1")
except ValueError as e:
    print(e)
try:
    [][0]
except IndexError as e:
    print(e)
try:
    -"x"
except TypeError as e:
    print(e)
try:
    iter(5)
except TypeError as e:
    print(e)
try:
    a, b = [1, 2, 3]
except ValueError as e:
    print(e)
try:
    a, b, c = [1, 2]
except ValueError as e:
    print(e)
try:
    1 / 0
except ZeroDivisionError as e:
    print(e)
try:
    1 % 0
except ZeroDivisionError as e:
    print(e)
try:
    1.0 / 0
except ZeroDivisionError as e:
    print(e)
try:
    "abc"[10]
except IndexError as e:
    print(e)
try:
    (1, 2)[0] = 5
except TypeError as e:
    print(e)
try:
    hash([])
except TypeError as e:
    print(e)
try:
    import math; math.sqrt(-1)
except ValueError as e:
    print(e)
