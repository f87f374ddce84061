#!/usr/bin/env python3
"""The STM interpreter against the GIL one on independent work:
bench/py/parallel_loops.py (paper 001's While and Iterator loops, paper 004's
countdown) with the same total work shared out among 1 and 2 threads, under
build/tmpy and build/tmpy-gil (and python3 for reference). Each configuration
runs in ROUNDS processes, interleaved; the best time is kept. Prints the
times, tmpy's speed-up from 1 to 2 threads and tmpy/tmpy-gil at 1 thread,
and writes bench/results/py_stm.txt (not with --quick unless --out is given).

  bench/py_stm.py [--rounds R] [--scale S] [--threads 1,2] [--quick] [--out FILE]

TMPY_BENCH_REPEAT (rounds, default 3) and TMPY_BENCH_SCALE are honoured;
the options take precedence. Exit status 1 if a run failed."""
import argparse
import os
import pathlib
import platform
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
PROG = ROOT / "bench" / "py" / "parallel_loops.py"
TOTAL = {"while": 6000000, "iterator": 6000000, "countdown": 12000000}
INTERPS = [("tmpy", str(ROOT / "build" / "tmpy")), ("tmpy-gil", str(ROOT / "build" / "tmpy-gil")),
           ("python3", sys.executable)]


def run_once(exe, name, threads, total):
    p = subprocess.run([exe, str(PROG), name, str(threads), str(total)], capture_output=True, text=True,
                       timeout=600)
    if p.returncode != 0:
        raise RuntimeError(f"{exe} {name} {threads}: {p.stderr.strip()[-300:]}")
    return float(p.stdout.split()[-1])


def machine():
    cpu = "unknown"
    try:
        for line in open("/proc/cpuinfo"):
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    load = os.getloadavg()
    return [f"cpu:      {cpu}", f"nproc:    {os.cpu_count()}", f"kernel:   {platform.release()}",
            f"load:     {load[0]:.2f} {load[1]:.2f} {load[2]:.2f} (1/5/15 min, at the start)",
            "commit:   " + subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT,
                                          capture_output=True, text=True).stdout.strip()]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=int(os.environ.get("TMPY_BENCH_REPEAT", "3")))
    ap.add_argument("--scale", type=float, default=float(os.environ.get("TMPY_BENCH_SCALE", "1")))
    ap.add_argument("--threads", default="1,2")
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--out")
    a = ap.parse_args()
    if a.quick:
        a.rounds, a.scale = 1, a.scale * 0.1
    threads = [int(t) for t in a.threads.split(",")]
    best = {}
    failed = False
    for _ in range(a.rounds):
        for name, total in TOTAL.items():
            n = int(total * a.scale)
            for label, exe in INTERPS:
                for t in threads:
                    try:
                        s = run_once(exe, name, t, n)
                    except (RuntimeError, subprocess.TimeoutExpired) as e:
                        print("FAILED", e, file=sys.stderr)
                        failed = True
                        continue
                    key = (name, label, t)
                    best[key] = min(best.get(key, s), s)
    lines = machine() + [f"rounds:   {a.rounds} (best kept), scale {a.scale}", ""]
    head = f"{'benchmark':10}" + "".join(f"{lab + ' ' + str(t) + 't':>14}" for lab, _ in INTERPS for t in threads)
    head += f"{'tmpy 1t/2t':>12}{'tmpy/gil 1t':>13}"
    lines.append(head)
    for name in TOTAL:
        row = f"{name:10}"
        for lab, _ in INTERPS:
            for t in threads:
                v = best.get((name, lab, t))
                row += f"{(f'{v:.3f} s' if v is not None else '-'):>14}"
        t1, t2, g1 = best.get((name, "tmpy", 1)), best.get((name, "tmpy", 2)), best.get((name, "tmpy-gil", 1))
        row += f"{(f'{t1 / t2:.2f}x' if t1 and t2 else '-'):>12}"
        row += f"{(f'{t1 / g1:.2f}' if t1 and g1 else '-'):>13}"
        lines.append(row)
    lines += ["", "Same total work at each thread count (strong scaling). tmpy 1t/2t above 1 means two threads",
              "finish sooner than one; tmpy/gil 1t is the STM build's single-thread cost against tmpy-gil."]
    text = "\n".join(lines) + "\n"
    print(text, end="")
    out = a.out or (None if a.quick else str(ROOT / "bench" / "results" / "py_stm.txt"))
    if out:
        pathlib.Path(out).write_text(text)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
