print(True and False, True or False, not True, None or "default", 0 or [] or "last", 1 and 2 and 3)
print(bool(None), bool(0.0), bool(""), bool([0]), bool({}), None is None, None == None, None is not False)
x = None
print(x is None, type(x).__name__, repr(None), str(None), [None] * 2)
print(True == 1, False == 0, True is True, True + 0.5, int(True), str(True), True & False, True | False, True ^ True)
print(sum([True, True, False]), max(False, True), sorted([True, False]), hash(True) == hash(1))
def f():
    pass
print(f(), f() is None)
print(1 if None else 2, [] == [], [] is [], "" == "", 0 == 0.0 == False)
a = []
print(a or "empty", a and "full", bool(a))
