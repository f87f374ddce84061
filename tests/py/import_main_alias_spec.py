# A module kept in sys.modules under a second name (multiprocessing keeps
# __main__ as __mp_main__) gets no spec under that name when importlib's
# bootstrap loads later: spawn reads __main__.__spec__ to choose how a child
# finds the main module, and a script's __main__ has none.
import sys
import types
sys.modules['__alias_of_main__'] = sys.modules['__main__']
m = types.ModuleType('real_name')
m.__file__ = __file__
sys.modules['other_key'] = m
import importlib.util
print(sys.modules['__main__'].__spec__)
print(getattr(m, '__spec__', 'unset'))
print(importlib.util.find_spec('json').name)
