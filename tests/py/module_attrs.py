import math, os, sys, random, time, collections, itertools, functools
for m in [math, os, sys, random, time, collections, itertools, functools]:
    print(m.__name__, type(m).__name__)
print(math.__name__ in sys.modules, callable(math.sqrt), hasattr(os, "path"), hasattr(os.path, "join"))
