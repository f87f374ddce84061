x = 1
del x
try:
    x
except NameError as e:
    print(e)
lst = list(range(10))
del lst[0], lst[-1]
del lst[::2]
print(lst)
d = {"a": 1, "b": 2, "c": 3}
del d["b"]
print(d)
class O:
    pass
o = O(); o.a = 1; o.b = 2
del o.a
print(vars(o))
a, b = 1, 2
del a, b
try:
    print(a)
except NameError as e:
    print(e)
def f():
    y = 5
    del y
    try:
        return y
    except UnboundLocalError as e:
        return str(e)
print(f())
try:
    del d["zzz"]
except KeyError as e:
    print("KeyError", e)
