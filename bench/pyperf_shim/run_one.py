"""Runs one pyperformance run_benchmark.py as __main__ with bench/pyperf_shim
first on sys.path (so `import pyperf` finds the shim).
  INTERP run_one.py BENCHMARK_DIR/run_benchmark.py [extra options...]"""
import os
import sys
import types

script = os.path.abspath(sys.argv[1])
sys.path.insert(0, os.path.dirname(script))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.argv = [script] + sys.argv[2:]
# A fresh module as sys.modules["__main__"], so that pickle finds the
# script's functions (runpy would do this, but tmpy lacks importlib.util).
main = types.ModuleType("__main__")
main.__file__ = script
main.__builtins__ = __builtins__
sys.modules["__main__"] = main
with open(script) as f:
    code = compile(f.read(), script, "exec")
exec(code, main.__dict__)
