# Importing from a zip archive on sys.path (zipimporter, sys.path_hooks[0] as in CPython): a module and a
# package, their __file__, __loader__ and __spec__, the path importer cache, and plain directory imports
# around it.
import sys, os, tempfile, shutil, zipfile

sys.dont_write_bytecode = True
print([getattr(h, "__name__", None) for h in sys.path_hooks])
d = tempfile.mkdtemp()
z = os.path.join(d, "bundle.zip")
with zipfile.ZipFile(z, "w") as zf:
    zf.writestr("zmod.py", "WHERE = 'zip'\nNAME = __name__\n")
    zf.writestr("zpkg/__init__.py", "from . import inner\n")
    zf.writestr("zpkg/inner.py", "VALUE = 42\n")
    zf.writestr("zpkg/data.txt", "zipped data\n")
with open(os.path.join(d, "dirmod.py"), "w") as f:
    f.write("WHERE = 'dir'\n")
sys.path.insert(0, z)
sys.path.insert(0, d)
import dirmod
import zmod
import zpkg
print(dirmod.WHERE, zmod.WHERE, zmod.NAME, zpkg.inner.VALUE)
print(os.path.relpath(zmod.__file__, d), os.path.relpath(zpkg.__file__, d), [os.path.relpath(p, d) for p in zpkg.__path__])
print(type(zmod.__loader__).__name__, zmod.__spec__.name, os.path.relpath(zmod.__spec__.origin, d))
print(zmod.__loader__.get_data(os.path.join(z, "zpkg", "data.txt")))
print(type(sys.path_importer_cache[z]).__name__, type(sys.path_importer_cache[d]).__name__)
print([h.__name__ for h in sys.path_hooks])
try:
    import zmissing
except ModuleNotFoundError as e:
    print(e)
shutil.rmtree(d)
