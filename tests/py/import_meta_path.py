# sys.meta_path and sys.path_hooks as CPython's: the default finders (before importlib is imported),
# a MetaPathFinder/Loader inserted first (pytest's assertion rewriting: find_spec returning a spec whose
# loader exec_module's compiled code), one appended after PathFinder (six.moves), a path hook, the
# path importer cache, ModuleNotFoundError's name/path, and a builtins.__import__ override.
import sys, os, tempfile, shutil

defaults = [f for f in sys.meta_path if isinstance(f, type)]   # (python3's site may add a finder of its own)
print([(f.__module__, f.__name__) for f in defaults])
d = tempfile.mkdtemp()


def write(rel, text):
    p = os.path.join(d, rel)
    os.makedirs(os.path.dirname(p), exist_ok=True)
    with open(p, "w") as f:
        f.write(text)


calls = []


class RewritingLoader:
    """Compiles the file itself, as pytest's AssertionRewritingHook does."""
    def __init__(self, path):
        self.path = path

    def create_module(self, spec):
        return None

    def exec_module(self, module):
        with open(self.path) as f:
            src = f.read().replace("REWRITE_ME", "'rewritten'")
        exec(compile(src, self.path, "exec"), module.__dict__)


class RewritingFinder:
    def find_spec(self, name, path, target=None):
        calls.append((name, None if path is None else [os.path.basename(p) for p in path]))
        if not name.startswith("rw_"):
            return None
        import importlib.util, importlib.machinery
        spec = importlib.machinery.PathFinder.find_spec(name, path)
        if spec is None or not isinstance(spec.loader, importlib.machinery.SourceFileLoader):
            return None
        return importlib.util.spec_from_file_location(name, spec.origin, loader=RewritingLoader(spec.origin),
                                                      submodule_search_locations=spec.submodule_search_locations)


write("rw_pkg/__init__.py", "VALUE = REWRITE_ME\n")
write("rw_pkg/rw_sub.py", "from . import VALUE\nSUB = (VALUE, __name__, __package__)\n")
write("plain_mod.py", "PLAIN = __name__\n")
sys.path.insert(0, d)
sys.meta_path.insert(0, RewritingFinder())
import rw_pkg.rw_sub
import plain_mod
print(rw_pkg.VALUE, rw_pkg.rw_sub.SUB, plain_mod.PLAIN)
print(type(rw_pkg.__loader__).__name__, rw_pkg.__spec__.name, rw_pkg.__spec__.submodule_search_locations == [os.path.join(d, "rw_pkg")])
print(type(plain_mod.__loader__).__name__, plain_mod.__spec__.origin == os.path.join(d, "plain_mod.py"))
print([c for c in calls if c[0].startswith(("rw_", "plain_"))])
print(type(sys.meta_path[0]).__name__)
print([f.__name__ for f in sys.meta_path if isinstance(f, type)], [f.__module__ for f in sys.meta_path if isinstance(f, type)])
del sys.meta_path[0]


class MovesImporter:
    """six.moves: names no file holds, made by the finder appended last."""
    def find_spec(self, name, path, target=None):
        if name == "virtual_moves" or name.startswith("virtual_moves."):
            import importlib.util
            return importlib.util.spec_from_loader(name, self, is_package=name == "virtual_moves")
        return None

    def create_module(self, spec):
        if spec.name == "virtual_moves.queue":
            import queue
            return queue
        return None

    def exec_module(self, module):
        module.__dict__.setdefault("MOVED", True)


sys.meta_path.append(MovesImporter())
import virtual_moves
from virtual_moves import queue as q
print(virtual_moves.MOVED, virtual_moves.__path__, q.__name__, sys.modules["virtual_moves.queue"] is q)
sys.meta_path.pop()


class HookFinder:
    def __init__(self, path):
        if not path.endswith("HOOKED"):
            raise ImportError("not ours")
        self.path = path

    def find_spec(self, name, target=None):
        if name != "hooked_mod":
            return None
        import importlib.util
        return importlib.util.spec_from_loader(name, self)

    def create_module(self, spec):
        return None

    def exec_module(self, module):
        module.WHERE = os.path.basename(self.path)

    def invalidate_caches(self):
        pass


hooked = os.path.join(d, "HOOKED")
os.mkdir(hooked)
sys.path_hooks.insert(0, HookFinder)
sys.path.insert(0, hooked)
import hooked_mod
print(hooked_mod.WHERE, type(sys.path_importer_cache[hooked]).__name__, type(sys.path_importer_cache[d]).__name__)
sys.path_hooks.pop(0)
sys.path.remove(hooked)

for name in ("nope_for_tmpy_xyz", "rw_pkg.nope", "plain_mod.sub"):
    try:
        __import__(name)
    except ModuleNotFoundError as e:
        print(type(e).__name__, e, e.name, e.path)

import builtins
orig = builtins.__import__
seen = []


def my_import(name, globals=None, locals=None, fromlist=(), level=0):
    if name.startswith(("imp_", "rw_")):   # (CPython's C code also imports through it)
        seen.append((name, fromlist, level, type(locals).__name__))
    return orig(name, globals, locals, fromlist, level)


write("imp_a.py", "import imp_b\nfrom imp_b import x\ndef f():\n    import imp_b\n    return imp_b.x\n")
write("imp_b.py", "x = 1\n")
builtins.__import__ = my_import
try:
    import imp_a
    imp_a.f()
    from rw_pkg import rw_sub
finally:
    builtins.__import__ = orig
print(seen)
try:   # a builtins dict without __import__
    exec("import os", {"__builtins__": {"print": print}})
except ImportError as e:
    print("ImportError", e)
class Fake:
    a = "attr a"


ns = {"__builtins__": {"__import__": lambda name, *rest: (print("fake", name, rest[2:]), Fake)[1]}}
exec("import anything.sub\nfrom pkg import a\nr = (anything.__name__, a)", ns)
print(ns["r"])
sys.modules["blocked_mod"] = None
try:
    import blocked_mod
except ModuleNotFoundError as e:
    print(e, e.name)
shutil.rmtree(d)
