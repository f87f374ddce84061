import sys
print(sys.maxsize, sys.byteorder, sys.platform, type(sys.argv).__name__, type(sys.path).__name__)
print(sys.version_info[0], sys.version_info[:2] >= (3, 11), sys.getrecursionlimit())
sys.setrecursionlimit(2000); print(sys.getrecursionlimit())
print("sys" in sys.modules, sys.modules["sys"] is sys, sys.stdout is not None, hasattr(sys.stderr, "write"))
print(sys.intern("abc") == "abc", sys.maxunicode, sys.float_info.max > 1e308, sys.float_info.epsilon)
try:
    sys.exit()
except SystemExit as e:
    print("SystemExit", e.code)
try:
    raise KeyError(1)
except KeyError:
    t, v, tb = sys.exc_info()
    print(t.__name__, v)
