"""Instructions per loop of pyperformance benchmarks under callgrind, a
measure that the load of a shared machine does not move.

  bench/pyperf_instructions.py [--loops A,B] [--bench a,b] NAME=INTERP ...

For each benchmark and interpreter, runs the benchmark's run_benchmark.py
through bench/pyperf_shim (one value, no warm-up) under
`valgrind --tool=callgrind` with A and with B loops and prints
(instructions(B) - instructions(A)) / (B - A): the cost of one loop without
start-up, imports and first-call costs. The benchmarks come from the cache
that bench/pyperformance.py fills (TMPY_PYPERF_CACHE)."""
import argparse
import json
import os
import pathlib
import re
import subprocess
import sys
import tempfile

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))
import pyperformance as harness  # noqa: E402  (bench/pyperformance.py)

# Benchmarks whose loop is short get more loops, so that the difference is
# well above the noise of start-up (hash seeds, GC timing).
DEFAULT_LOOPS = {
    "pickle_pure_python": (2, 12), "unpickle_pure_python": (2, 12),
    "deltablue": (2, 8), "deepcopy": (2, 12), "hexiom": (1, 3),
    "generators": (1, 2), "regex_dna": (1, 2), "go": (1, 2), "float": (1, 2),
    "richards": (1, 3), "raytrace": (1, 2), "nqueens": (1, 2), "chaos": (1, 2),
}


def real_executable(interp):
    """The binary itself: valgrind must not trace a wrapper (a pyenv shim
    execs the real python3, which valgrind then does not follow)."""
    interp = os.path.abspath(interp) if "/" in interp else interp
    return subprocess.run([interp, "-c", "import sys; print(sys.executable)"], capture_output=True,
                          text=True, check=True).stdout.strip()


def instructions(interp, folder, opts, name, loops):
    with tempfile.TemporaryDirectory() as d:
        env = dict(os.environ, TMPY_SHIM_LOOPS=json.dumps({name: loops}),
                   TMPY_SHIM_VALUES="1", TMPY_SHIM_WARMUP="0",
                   TMPY_SHIM_OUT=os.path.join(d, "out.json"))
        r = subprocess.run(["valgrind", "--tool=callgrind",
                            "--callgrind-out-file=" + os.path.join(d, "cg.out"),
                            interp, str(ROOT / "bench" / "pyperf_shim" / "run_one.py"),
                            str(folder / "run_benchmark.py")] + opts, env=env, cwd=folder,
                           capture_output=True, text=True)
        m = re.search(r"Collected : (\d+)", r.stderr)
        if r.returncode != 0 or not m:
            raise RuntimeError(f"{interp} {name}: rc {r.returncode}: {r.stderr[-500:]}")
        return int(m.group(1))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bench", default="generators,deltablue,pickle_pure_python,"
                    "unpickle_pure_python,regex_dna")
    ap.add_argument("--loops", default=None, help="A,B for every benchmark")
    ap.add_argument("interps", nargs="+", help="NAME=PATH")
    args = ap.parse_args()
    interps = [s.split("=", 1) for s in args.interps]
    benchmarks = {row[0]: row for row in harness.manifest(harness.fetch())}
    print(f"{'benchmark':24}" + "".join(f"{n:>16}" for n, _ in interps)
          + "".join(f"{n + '/' + interps[0][0]:>22}" for n, _ in interps[1:]))
    for name in args.bench.split(","):
        _, folder, opts, _ = benchmarks[name]
        a, c = (map(int, args.loops.split(","))) if args.loops else DEFAULT_LOOPS.get(name, (1, 2))
        per = []
        for _, path in interps:
            path = real_executable(path)
            per.append((instructions(path, folder, opts, name, c)
                        - instructions(path, folder, opts, name, a)) / (c - a))
        print(f"{name:24}" + "".join(f"{p / 1e6:15.1f}M" for p in per)
              + "".join(f"{p / per[0]:21.2f}x" for p in per[1:]), flush=True)


if __name__ == "__main__":
    main()
