def use_math():
    import math
    return math.sqrt(81)
def use_from():
    from collections import Counter
    return Counter("aab").most_common(1)
print(use_math(), use_from())
try:
    import math as m, os.path as p
    print(m.floor(2.5), p.basename("/a/b"))
except ImportError:
    print("fail")
