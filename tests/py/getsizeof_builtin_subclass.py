# sys.getsizeof of an instance of a built-in subclass counts its value (more than the plain built-in), unless __sizeof__ is overridden.
import sys
from collections import OrderedDict
class D(dict): pass
class L(list): pass
class S(str): pass
class T(tuple): pass
class Own(list):
    def __sizeof__(self): return 1000
for base, sub in ((dict(a=1), D(a=1)), ([1, 2, 3], L([1, 2, 3])), ('abc', S('abc')), ((1, 2), T((1, 2)))):
    print(type(sub).__name__, sys.getsizeof(sub) > sys.getsizeof(base))
print(sys.getsizeof(OrderedDict(a=1)) > sys.getsizeof(dict(a=1)), sys.getsizeof(Own()) >= 1000)
