# Imports through a user's sys.meta_path finder and importlib.import_module from several threads at once:
# each module body runs exactly once, every thread gets the finished module (the one import lock covers
# the finders' calls and CPython's _bootstrap._load), and the first import of importlib (which loads
# _frozen_importlib) races with plain imports. The modules are written to a private directory.
import os
import sys
import tempfile
import threading

sys.dont_write_bytecode = True
d = tempfile.mkdtemp()
for i in range(6):
    with open(os.path.join(d, "thr_file_%d.py" % i), "w") as f:
        f.write("import sys\nwith sys.runs_lock:\n    sys.runs = getattr(sys, 'runs', 0) + 1\n"
                "TOTAL = sum(range(%d))\n" % (20000 + i))
sys.path.insert(0, d)
runs = {}
runs_lock = sys.runs_lock = threading.Lock()


class Loader:
    def create_module(self, spec):
        return None

    def exec_module(self, module):
        with runs_lock:
            runs[module.__name__] = runs.get(module.__name__, 0) + 1
        module.VALUE = sum(range(10000)) + len(module.__name__)


class Finder:
    def find_spec(self, name, path, target=None):
        if name.startswith("thr_virtual_"):
            import importlib.util
            return importlib.util.spec_from_loader(name, Loader())
        return None


start = threading.Barrier(4)
results = [None] * 4


def work(k):
    start.wait()
    if k == 0:
        import importlib
        importlib.import_module("importlib.util")
    import importlib
    got = []
    for i in range(6):
        name = "thr_virtual_%d" % ((i + k) % 6)
        got.append(importlib.import_module(name).VALUE)
        got.append(__import__("thr_file_%d" % ((i + 2 * k) % 6)).TOTAL)
    results[k] = sorted(got)


sys.meta_path.insert(0, Finder())
threads = [threading.Thread(target=work, args=(k,)) for k in range(4)]
for t in threads:
    t.start()
for t in threads:
    t.join()
print(all(r == results[0] for r in results), len(results[0]))
print(sorted(runs.items()), sys.runs)
print(sorted(n for n in sys.modules if n.startswith("thr_")))
for i in range(6):
    os.remove(os.path.join(d, "thr_file_%d.py" % i))
os.rmdir(d)
