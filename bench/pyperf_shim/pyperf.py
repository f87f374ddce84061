"""A small stand-in for pyperf's Runner, used by bench/pyperformance.py.

pyperf itself spawns worker processes, calibrates and writes JSON; the
interpreters under test only need to run a benchmark's workload a fixed
number of times. This module keeps the part of pyperf's API that
pyperformance's run_benchmark.py files call (Runner.bench_func,
bench_time_func, bench_async_func, metadata, argparser, parse_args,
perf_counter, python_implementation) and times each value itself.

Configured by environment variables set by bench/pyperformance.py:
  TMPY_SHIM_LOOPS   JSON object: benchmark name -> loops per value (default 1)
  TMPY_SHIM_VALUES  values measured per benchmark after one warm-up (default 3)
  TMPY_SHIM_WARMUP  warm-up values (default 1)
  TMPY_SHIM_OUT     file that receives one JSON line per benchmark name
  TMPY_SHIM_CLOCK   "cpu" (default): pyperf.perf_counter is time.process_time
Each line holds, per value, "time": the time of the timed region (what
bench_time_func's function returns, else the clock around the loops) and
"wall": the wall time of the whole value, set-up included."""
import argparse
import json
import os
import sys
import time

# The benchmarks time themselves with pyperf.perf_counter: CPU time here, so
# that a loaded machine moves the numbers less (TMPY_SHIM_CLOCK=wall for
# pyperf's own clock).
perf_counter = time.perf_counter if os.environ.get("TMPY_SHIM_CLOCK") == "wall" else time.process_time

_LOOPS = json.loads(os.environ.get("TMPY_SHIM_LOOPS", "{}"))
_VALUES = int(os.environ.get("TMPY_SHIM_VALUES", "3"))
_WARMUP = int(os.environ.get("TMPY_SHIM_WARMUP", "1"))
_OUT = os.environ.get("TMPY_SHIM_OUT")


def python_implementation():
    return sys.implementation.name.lower()


class Runner:
    def __init__(self, values=None, processes=None, loops=None, warmups=None,
                 add_cmdline_args=None, **kwargs):
        self.metadata = {}
        self.argparser = argparse.ArgumentParser()
        self.args = None

    def parse_args(self, args=None):
        if self.args is None:
            self.args = self.argparser.parse_args(args)
        return self.args

    def _record(self, name, loops, inner_loops, times, wall):
        row = {"name": name, "loops": loops, "inner_loops": inner_loops or 1,
               "time": times, "wall": wall}
        if _OUT:
            with open(_OUT, "a") as f:
                f.write(json.dumps(row) + "\n")
        else:
            print(json.dumps(row))

    def _run(self, name, timed, inner_loops):
        """timed(loops) runs the workload and returns the benchmark's own time or None."""
        self.parse_args()
        loops = int(_LOOPS.get(name, 1))
        times, wall = [], []
        for i in range(_WARMUP + _VALUES):
            w0 = time.perf_counter()
            c0 = perf_counter()
            r = timed(loops)
            c1 = perf_counter()
            w1 = time.perf_counter()
            if i >= _WARMUP:
                times.append(c1 - c0 if r is None else r)
                wall.append(w1 - w0)
        self._record(name, loops, inner_loops, times, wall)

    def bench_time_func(self, name, time_func, *args, inner_loops=None, metadata=None):
        self._run(name, lambda loops: time_func(loops, *args), inner_loops)

    def bench_func(self, name, func, *args, inner_loops=None, metadata=None):
        def timed(loops):
            for _ in range(loops):
                func(*args)
        self._run(name, timed, inner_loops)

    def bench_async_func(self, name, func, *args, inner_loops=None, metadata=None,
                         loop_factory=None):
        import asyncio

        def timed(loops):
            async def main():
                for _ in range(loops):
                    await func(*args)
            loop = asyncio.new_event_loop() if loop_factory is None else loop_factory()
            asyncio.set_event_loop(loop)
            try:
                loop.run_until_complete(main())
            finally:
                asyncio.set_event_loop(None)
                loop.close()
        self._run(name, timed, inner_loops)

    def bench_command(self, name, command):
        raise NotImplementedError("bench_command times a subprocess, not a workload in this interpreter")
