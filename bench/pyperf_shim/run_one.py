"""Runs one pyperformance run_benchmark.py as __main__ with bench/pyperf_shim
first on sys.path (so `import pyperf` finds the shim).
  INTERP run_one.py BENCHMARK_DIR/run_benchmark.py [extra options...]"""
import os
import sys

script = os.path.abspath(sys.argv[1])
sys.path.insert(0, os.path.dirname(script))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.argv = [script] + sys.argv[2:]
with open(script) as f:
    code = compile(f.read(), script, "exec")
exec(code, {"__name__": "__main__", "__file__": script, "__builtins__": __builtins__})
