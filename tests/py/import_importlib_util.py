# CPython's importlib over tmpy's import system: spec_from_file_location + module_from_spec +
# exec_module, find_spec, resolve_name, LazyLoader, import_module, reload, importlib.resources.files,
# namespace packages, module specs (importlib.metadata: import_metadata.py).
import sys, os, tempfile, shutil
sys.dont_write_bytecode = True   # (reload below rewrites a source file within the same second)
import importlib, importlib.util, importlib.machinery

d = tempfile.mkdtemp()


def write(rel, text):
    p = os.path.join(d, rel)
    os.makedirs(os.path.dirname(p), exist_ok=True)
    with open(p, "w") as f:
        f.write(text)


def rel(p):
    return None if p is None else os.path.relpath(p, d)


write("plain_mod.py", "VALUE = 7\nprint('running', __name__, __spec__.name, type(__loader__).__name__)\n")
spec = importlib.util.spec_from_file_location("custom_name", os.path.join(d, "plain_mod.py"))
print(spec.name, rel(spec.origin), type(spec.loader).__name__, spec.submodule_search_locations, spec.has_location)
m = importlib.util.module_from_spec(spec)
print("custom_name" in sys.modules, m.__name__, rel(m.__file__))
spec.loader.exec_module(m)
print(m.VALUE, m.__spec__ is spec, m.__loader__ is spec.loader)

sys.path.insert(0, d)
s = importlib.util.find_spec("plain_mod")
print(s.name, rel(s.origin), s.parent, type(s.loader).__name__)
print(importlib.util.find_spec("no_such_thing_for_tmpy"), "plain_mod" in sys.modules)
print(importlib.util.resolve_name("..b", "pkg.sub.mod"), importlib.util.resolve_name(".x", "pkg"),
      importlib.util.resolve_name("abs", None))
try:
    importlib.util.resolve_name("...x", "pkg")
except ImportError as e:
    print("ImportError", e)
print(importlib.util.find_spec("json").name, importlib.util.find_spec("sys").origin,
      importlib.util.find_spec("json.decoder").parent)

write("lazy_mod.py", "print('lazy_mod runs')\nA = 1\n")
spec = importlib.util.find_spec("lazy_mod")
loader = importlib.util.LazyLoader(spec.loader)
spec.loader = loader
mod = importlib.util.module_from_spec(spec)
sys.modules["lazy_mod"] = mod
loader.exec_module(mod)
print("before the first attribute")
print(mod.A, type(mod).__name__)

write("pkg_a/__init__.py", "from . import inner\nNAME = 'pkg_a'\n")
write("pkg_a/inner.py", "import pkg_a as parent\nINNER = __name__\n")
pa = importlib.import_module("pkg_a")
print(pa.NAME, pa.inner.INNER, importlib.import_module(".inner", "pkg_a") is pa.inner,
      importlib.import_module("..inner", "pkg_a.inner") is pa.inner)
print(pa.__spec__.name, pa.__spec__.submodule_search_locations == [os.path.join(d, "pkg_a")],
      pa.__spec__.parent, pa.inner.__spec__.parent, type(pa.__loader__).__name__, pa.__package__)
for args in (("",), (".x",), ("..x", "pkg_a")):
    try:
        importlib.import_module(*args)
    except (TypeError, ValueError, ImportError) as e:
        print(type(e).__name__, e)

write("rl.py", "N = 1\nprint('rl runs')\n")
import rl
print(rl.N)
write("rl.py", "N = 22\nprint('rl runs again', __name__)\nOTHER = 3\n")
print(importlib.reload(rl) is rl, rl.N, rl.OTHER)
try:
    importlib.reload(42)
except TypeError as e:
    print("TypeError", e)

write("respkg/__init__.py", "")
write("respkg/data.txt", "hello resource\n")
write("respkg/sub/more.txt", "more\n")
import respkg
from importlib import resources
print(resources.files(respkg).joinpath("data.txt").read_text(), end="")
print(resources.files("respkg").joinpath("sub", "more.txt").read_text(), end="")
print(sorted(p.name for p in resources.files("respkg").iterdir() if not p.name.startswith("__")))
print(resources.files(respkg).joinpath("data.txt").is_file(), resources.files(respkg).joinpath("nope").is_file())

write("nsa/nspkg/mod_a.py", "A = 'a'\n")
write("nsb/nspkg/mod_b.py", "B = 'b'\n")
sys.path[:0] = [os.path.join(d, "nsa"), os.path.join(d, "nsb")]
import nspkg.mod_a, nspkg.mod_b
print(nspkg.mod_a.A, nspkg.mod_b.B, nspkg.__file__, nspkg.__spec__.origin, type(nspkg.__path__).__name__,
      [rel(p) for p in nspkg.__path__], type(nspkg.__loader__).__name__)
print(repr(nspkg).split(" (")[0], nspkg.mod_a.__spec__.parent)
write("nsc/nspkg/mod_c.py", "C = 'c'\n")
sys.path.append(os.path.join(d, "nsc"))
import nspkg.mod_c   # a namespace package's path follows sys.path
print(nspkg.mod_c.C, [rel(p) for p in nspkg.__path__])

import json
print(type(json.__spec__).__name__, type(json.__loader__).__name__, json.__spec__.origin == json.__file__,
      sys.modules["sys"].__spec__.origin, type(sys.modules["sys"].__loader__).__name__)
print(importlib.__import__("pkg_a.inner", fromlist=["INNER"]).INNER)
importlib.invalidate_caches()
shutil.rmtree(d)
