#!/usr/bin/env python3
"""Issue 21's acceptance matrix: threaded programs under build/tmpy at
TMPY_SEGMENTS 1/2/4/8 x {no injection, TMPY_STM_INJECT_ABORTS,
TMPY_STM_INJECT_DIVERGE} x {TMPY_STM_CHECK=0,1} x {TMPY_STM_SOLO default, 0},
each compared with python3's output (stdout and exit code) and timed against
build/tmpy-gil (the best of --gil-repeat runs). A run over --limit times
tmpy-gil's time is run again (--recheck times), each time right after
tmpy-gil again, and the pair with the best ratio is kept, since the machine
is shared; the table says how many tries it took. A run longer than
--timeout seconds (default: 20x tmpy-gil, at least 30 s) is killed: TIMEOUT.

  bench/issue21_matrix.py [--full] [--programs reproducers|threads|all|NAME,...]
                          [--seeds N] [--rate R] [--limit X] [--out FILE]

By default the reproducers of issue 21 (and issue 20's lock program) run
over a pairwise subset of the configurations (every pair of values of any
two axes appears once: 12 of the 48); --full runs all 48, and --programs
all adds every tests/py/thread_*.py. With --seeds N each injected
configuration runs at N seeds. Writes the table, the machine and its load
to bench/results/issue21_matrix.txt (--out - prints only). Exit status 1 if
a run printed another output than python3's, crashed or timed out."""
import argparse
import datetime
import itertools
import os
import pathlib
import platform
import signal
import subprocess
import sys
import time

ROOT = pathlib.Path(__file__).resolve().parent.parent
PY_DIR = ROOT / "tests" / "py"
TMPY = ROOT / "build" / "tmpy"
TMPY_GIL = ROOT / "build" / "tmpy-gil"
REPRODUCERS = [PY_DIR / "thread_finalizers_rare_write.py", PY_DIR / "thread_blocking_divergent_retry.py",
               PY_DIR / "sys_setters_divergent_retry.py", PY_DIR / "thread_spin_in_callback.py",
               ROOT / "bench" / "py" / "issue20_lock_spinner.py", PY_DIR / "thread_lock_fairness.py"]

SEGMENTS = [1, 2, 4, 8]
INJECTIONS = ["none", "aborts", "diverge"]
CHECKS = [0, 1]
SOLOS = ["default", "0"]
AXES = [SEGMENTS, INJECTIONS, CHECKS, SOLOS]


def pairwise(axes):
    """A subset of the product in which every pair of values of two axes
    occurs: greedily the configuration covering most pairs not yet seen."""
    full = list(itertools.product(*axes))
    want = {(i, a, j, b) for i, j in itertools.combinations(range(len(axes)), 2)
            for a in axes[i] for b in axes[j]}
    chosen = []
    while want:
        best = max(full, key=lambda c: sum((i, c[i], j, c[j]) in want
                                           for i, j in itertools.combinations(range(len(c)), 2)))
        chosen.append(best)
        want -= {(i, best[i], j, best[j]) for i, j in itertools.combinations(range(len(best)), 2)}
    return sorted(chosen, key=full.index)


def directives(path):
    """tests/py's first-line directives: # args:, # stdin:, # env:."""
    args, stdin, env = [], None, {}
    with open(path, encoding="utf-8") as f:
        for _ in range(5):
            line = f.readline()
            if line.startswith("# args:"):
                args = line[len("# args:"):].split()
            elif line.startswith("# stdin:"):
                stdin = line[len("# stdin:"):].strip().encode().decode("unicode_escape")
            elif line.startswith("# env:"):
                k, _, v = line[len("# env:"):].strip().partition("=")
                env[k] = v
    return args, stdin, env


def run(exe, path, extra, timeout):
    """(wall seconds, stdout, exit code, last stderr line); wall None: timed out."""
    args, stdin, env = directives(path)
    full = {k: v for k, v in os.environ.items() if not k.startswith("TMPY_") and k != "PYTHONPATH"}
    full["PYTHONHASHSEED"] = "0"
    full.update(env)
    full.update(extra)
    t0 = time.perf_counter()
    p = subprocess.Popen([str(exe), path.name, *args], cwd=path.parent, env=full, text=True,
                         stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         start_new_session=True)
    try:
        out, err = p.communicate(stdin, timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(p.pid, signal.SIGKILL)   # the child's own process group
        p.communicate()
        return None, "", None, "TIMEOUT"
    wall = time.perf_counter() - t0
    lines = err.strip().splitlines()
    return wall, out, p.returncode, lines[-1] if lines else ""


def config_env(cfg, seed, rate):
    segs, inj, check, solo = cfg
    env = {"TMPY_SEGMENTS": str(segs), "TMPY_STM_CHECK": str(check)}
    if solo != "default":
        env["TMPY_STM_SOLO"] = solo
    if inj != "none":
        env["TMPY_STM_INJECT_ABORTS"] = f"{rate}:{seed}"
    if inj == "diverge":
        env["TMPY_STM_INJECT_DIVERGE"] = "1"
    return env


def machine_lines(load_start):
    cpu = "?"
    try:
        for line in open("/proc/cpuinfo"):
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    load_end = os.getloadavg()
    try:
        commit = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--short", "HEAD"],
                                capture_output=True, text=True).stdout.strip()
    except OSError:
        commit = "?"
    return [f"date:     {datetime.datetime.utcnow():%Y-%m-%d %H:%M} UTC", f"commit:   {commit}",
            f"cpu:      {cpu}", f"nproc:    {os.cpu_count()}", f"kernel:   {platform.release()}",
            f"load:     {load_start[0]:.2f} {load_start[1]:.2f} {load_start[2]:.2f} at the start, "
            f"{load_end[0]:.2f} {load_end[1]:.2f} {load_end[2]:.2f} at the end (1/5/15 min; "
            f"the machine is shared, so wall-time ratios are noisy)"]


def parse_args():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--full", action="store_true", help="all 48 configurations (default: a pairwise 12)")
    ap.add_argument("--programs", default="reproducers",
                    help="reproducers, threads (tests/py/thread_*.py), all (both), or names")
    ap.add_argument("--seeds", type=int, default=1, help="seeds per injected configuration")
    ap.add_argument("--rate", default="0.02", help="TMPY_STM_INJECT_ABORTS rate")
    ap.add_argument("--limit", type=float, default=5.0, help="the allowed ratio to tmpy-gil")
    ap.add_argument("--recheck", type=int, default=2, help="extra tries of a run over the limit")
    ap.add_argument("--gil-repeat", type=int, default=2)
    ap.add_argument("--timeout", type=float, default=None)
    ap.add_argument("--out", default=str(ROOT / "bench" / "results" / "issue21_matrix.txt"),
                    help="the table's file; - prints only")
    return ap.parse_args()


def programs(spec):
    threads = sorted(PY_DIR.glob("thread_*.py"))
    if spec == "reproducers":
        return REPRODUCERS
    if spec == "threads":
        return threads
    if spec == "all":
        return REPRODUCERS + [p for p in threads if p not in REPRODUCERS]
    found = []
    for name in spec.split(","):
        hits = [p for p in REPRODUCERS + threads if p.stem == name] or [PY_DIR / f"{name}.py"]
        found.append(hits[0])
    return found


def main():
    a = parse_args()
    load_start = os.getloadavg()
    for exe in (TMPY, TMPY_GIL):
        if not exe.exists():
            sys.exit(f"{exe} is not built: run make")
    configs = list(itertools.product(*AXES)) if a.full else pairwise(AXES)
    progs = programs(a.programs)
    rows, bad, slow = [], 0, 0
    header = (f"{'program':34} {'seg':>3} {'inject':8} {'chk':>3} {'solo':7} {'seed':>6} "
              f"{'wall s':>7} {'gil s':>6} {'ratio':>6} {'tries':>5}  output")
    print(header, flush=True)
    for path in progs:
        ref = run(sys.executable, path, {}, 300)
        gil = []
        for _ in range(a.gil_repeat):
            g = run(TMPY_GIL, path, {}, 300)
            gil.append(g[0] if g[0] is not None and g[1:3] == ref[1:3] else float("inf"))
        gil_wall = min(gil)
        timeout = a.timeout or max(30.0, 20 * gil_wall if gil_wall != float("inf") else 60.0)
        for ci, cfg in enumerate(configs):
            seeds = range(a.seeds) if cfg[1] != "none" else range(1)
            for si in seeds:
                seed = sum(path.stem.encode()) * 100 + ci * 10 + si
                env = config_env(cfg, seed, a.rate)
                best, base, tries, status = None, gil_wall, 0, "ok"
                while True:
                    tries += 1
                    # A recheck times tmpy-gil again right before: the pair
                    # saw the same load, and the best pair's ratio is kept.
                    g = run(TMPY_GIL, path, {}, 300)[0] if tries > 1 else gil_wall
                    wall, out, rc, last = run(TMPY, path, env, timeout)
                    if wall is None:
                        status = "TIMEOUT"
                        break
                    if (out, rc) != (ref[1], ref[2]):
                        status = f"WRONG (exit {rc}: {last[:60]})"
                        break
                    if g and (best is None or wall / g < best / base):
                        best, base = wall, g
                    if best <= a.limit * base or tries > a.recheck:
                        break
                ratio = best / base if best is not None and base not in (0, None, float("inf")) else None
                if status != "ok":
                    bad += 1
                elif ratio is not None and ratio > a.limit:
                    slow += 1
                    status = f"ok, over {a.limit:g}x"
                line = (f"{path.stem[:34]:34} {cfg[0]:>3} {cfg[1]:8} {cfg[2]:>3} {cfg[3]:7} "
                        f"{seed if cfg[1] != 'none' else '-':>6} "
                        f"{best if best is not None else float('nan'):7.2f} {base:6.2f} "
                        f"{ratio if ratio is not None else float('nan'):6.2f} {tries:>5}  {status}")
                print(line, flush=True)
                rows.append(line)
    summary = [f"{len(rows)} runs ({len(progs)} programs x {len(configs)} configurations"
               f"{f' x {a.seeds} seeds when injected' if a.seeds > 1 else ''}; injection rate {a.rate}): "
               f"{bad} wrong/crashed/timed out, {slow} over {a.limit:g}x tmpy-gil"]
    print(summary[0])
    if a.out != "-":
        text = ["# bench/issue21_matrix.py " + " ".join(sys.argv[1:]), "",
                *machine_lines(load_start), "",
                "Each row: one run of build/tmpy in that configuration (seg = TMPY_SEGMENTS, inject =",
                "none / TMPY_STM_INJECT_ABORTS=rate:seed / that with TMPY_STM_INJECT_DIVERGE=1, chk =",
                "TMPY_STM_CHECK, solo = TMPY_STM_SOLO), its wall time, tmpy-gil's wall time, the ratio",
                "(a run over the limit is tried again right after another tmpy-gil run, `tries` in all,",
                "and the pair with the best ratio is shown), and whether stdout and the exit code equal",
                "python3's.", "", header, *rows, "", *summary]
        pathlib.Path(a.out).write_text("\n".join(text) + "\n")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
