#!/usr/bin/env python3
"""Interpreter binaries side by side in one run, by CPU time (user + sys of
the whole process, start-up included): on a shared machine the CPU time of a
single-threaded program moves far less with the load than its wall time.

  bench/cpu_compare.py [--rounds R] [--bench a,b] [--threads] NAME=BINARY[:ENV=V,...] ...

For each bench/py program (default float_bench, dict_str, richards) every
binary runs R times (default 5), interleaved; the best is kept and each is
shown against the first binary. --threads adds bench/py/parallel_loops.py
(countdown, the same total work on 1 and 2 threads): wall time of the
threaded part, best of R, and the 1-thread/2-thread speed-up.
Example:
  bench/cpu_compare.py gil=build/tmpy-gil stm=build/tmpy stm-nosolo=build/tmpy:TMPY_STM_SOLO=0"""
import argparse
import os
import pathlib
import resource
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent


def parse_binary(spec):
    name, _, rest = spec.partition("=")
    exe, _, envs = rest.partition(":")
    env = dict(os.environ)
    for kv in filter(None, envs.split(",")):
        k, _, v = kv.partition("=")
        env[k] = v
    return name, exe, env


def cpu_time(exe, env, args):
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    p = subprocess.run([exe, *args], env=env, capture_output=True, text=True, timeout=600)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if p.returncode != 0:
        raise RuntimeError(f"{exe} {' '.join(args)}: {p.stderr.strip()[-300:]}")
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime), p.stdout


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--bench", default="float_bench,dict_str,richards")
    ap.add_argument("--threads", action="store_true")
    ap.add_argument("binaries", nargs="+")
    a = ap.parse_args()
    bins = [parse_binary(s) for s in a.binaries]
    load = os.getloadavg()
    print(f"load at start: {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}; best of {a.rounds}")
    print(f"{'benchmark':14}" + "".join(f"{n:>14}" for n, _, _ in bins) + "   (CPU s; ratio to the first)")
    for b in filter(None, a.bench.split(",")):
        best = {n: float("inf") for n, _, _ in bins}
        for _ in range(a.rounds):
            for n, exe, env in bins:
                t, _ = cpu_time(exe, env, [str(ROOT / "bench" / "py" / f"{b}.py")])
                best[n] = min(best[n], t)
        first = best[bins[0][0]]
        print(f"{b:14}" + "".join(f"{best[n]:8.3f} {best[n] / first:4.2f}x" for n, _, _ in bins))
    if a.threads:
        prog = str(ROOT / "bench" / "py" / "parallel_loops.py")
        print(f"\nparallel_loops countdown 12000000 (wall s of the threaded part, best of {a.rounds}):")
        for n, exe, env in bins:
            best = {}
            for _ in range(a.rounds):
                for th in (1, 2):
                    _, out = cpu_time(exe, env, [prog, "countdown", str(th), "12000000"])
                    best[th] = min(best.get(th, float("inf")), float(out.split()[-1]))
            print(f"  {n:14} 1 thread {best[1]:.3f} s, 2 threads {best[2]:.3f} s, speed-up {best[1] / best[2]:.2f}x")
    sys.stdout.flush()


if __name__ == "__main__":
    main()
