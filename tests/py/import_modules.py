import math, sys, os
import os.path
from math import sqrt, pi as PI
import collections as C
from collections import namedtuple, deque
import pkgdemo
from pkgdemo import helper
from pkgdemo.sub import leaf
import pkgdemo.sub.leaf as lf
print(sqrt(16), round(PI, 5), math.floor(2.7), math.ceil(2.1), C.Counter("aab")["a"])
print(pkgdemo.NAME, helper.double(21), leaf.LEAF, lf.where(), pkgdemo.sub.leaf.LEAF)
print(pkgdemo.__name__, helper.__name__, leaf.__name__, type(math).__name__)
print("math" in sys.modules, "pkgdemo.helper" in sys.modules)
try:
    import no_such_module_xyz
except ImportError as e:
    print(type(e).__name__, e)
try:
    from pkgdemo import no_such_name
except ImportError as e:
    print(type(e).__name__, e)
import pkgdemo.helper
print(pkgdemo.helper is helper, helper.counter())
import pkgdemo.helper as again
print(again.counter())
