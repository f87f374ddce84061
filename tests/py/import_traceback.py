# A failed import through a user's finder and loader: the traceback's importlib frames are cut as CPython's
# remove_importlib_frames does (all of them for an ImportError; up to _call_with_frames_removed else).
import sys, os, importlib.util, tempfile
d = tempfile.mkdtemp()
with open(os.path.join(d, "bad_mod.py"), "w") as f: f.write("x = 1\nraise ValueError('boom in bad_mod')\n")
with open(os.path.join(d, "imperr_mod.py"), "w") as f: f.write("import nonexistent_zzz\n")
class L:
    def __init__(self, p): self.p = p
    def create_module(self, spec): return None
    def exec_module(self, m):
        with open(self.p) as f: src = f.read()
        exec(compile(src, self.p, "exec"), m.__dict__)
class F:
    def find_spec(self, name, path, target=None):
        if name in ("bad_mod", "imperr_mod"):
            p = os.path.join(d, name + ".py")
            return importlib.util.spec_from_file_location(name, p, loader=L(p))
sys.meta_path.insert(0, F())
import traceback
for n in ("bad_mod", "imperr_mod"):
    try:
        __import__(n)
    except Exception as e:
        for fs in traceback.extract_tb(e.__traceback__):
            if isinstance(e, ValueError) and fs.filename.startswith("<frozen"):
                continue   # (tmpy enters the bootstrap at _load, CPython at _find_and_load)
            print(os.path.basename(fs.filename), fs.name, fs.lineno)
        print(type(e).__name__, e)
open_ = open
with open_(os.path.join(d, "srcfail.py"), "w") as f:
    f.write("import os\n\n\nraise KeyError('from a source file')\n")
sys.path_hooks.insert(0, lambda p: (_ for _ in ()).throw(ImportError()))   # a hook of the user's: PathFinder in Python
sys.path_importer_cache.clear()
sys.path.insert(0, d)
try:
    import srcfail
except KeyError as e:
    print([(os.path.basename(fs.filename), fs.name) for fs in traceback.extract_tb(e.__traceback__)])
sys.path_hooks.pop(0)
import shutil
shutil.rmtree(d)
