#!/usr/bin/env python3
"""The Condition bounded buffer (bench/py/condition_buffer.py) and a thread-switch loop under
sys.setswitchinterval(0.0001) (bench/py/switch_interval.py), timed under build/tmpy-gil against
python3, and optionally under a second tmpy-gil (--before, e.g. a build of an older commit).
Each configuration runs in ROUNDS separate processes per interpreter, interleaved; the best and the
median wall-clock times are kept (the machine is shared: best-of shows the least disturbed run,
the median what is typical). Writes bench/results/condition_buffer.txt unless --quick.

  bench/py_condition.py [--tmpy PATH] [--before PATH] [--python PATH] [--rounds R] [--quick]
"""
import argparse
import os
import pathlib
import platform
import statistics
import subprocess
import sys
import time

ROOT = pathlib.Path(__file__).resolve().parent.parent
BUFFER = ROOT / "bench" / "py" / "condition_buffer.py"
SWITCH = ROOT / "bench" / "py" / "switch_interval.py"
# (label, program, args): producers consumers capacity notify items
CONFIGS = [
    ("buffer 2p/2c cap16 notify", BUFFER, ["2", "2", "16", "one", "10000"]),
    ("buffer 4p/4c cap8 notify", BUFFER, ["4", "4", "8", "one", "5000"]),
    ("buffer 4p/4c cap2 notify_all", BUFFER, ["4", "4", "2", "all", "3000"]),
    ("buffer 8p/8c cap2 notify_all", BUFFER, ["8", "8", "2", "all", "2500"]),
    ("buffer 4p/4c cap8 notify, 1e-4", BUFFER, ["4", "4", "8", "one", "5000", "0.0001"]),
    ("switch 4 threads, interval 1e-4", SWITCH, ["4", "0.0001", "5000000"]),
    ("switch 16 threads, interval 1e-4", SWITCH, ["16", "0.0001", "1000000"]),
]


def machine():
    cpus = os.cpu_count()
    model = "?"
    try:
        for line in open("/proc/cpuinfo"):
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    mem = "?"
    try:
        for line in open("/proc/meminfo"):
            if line.startswith("MemTotal"):
                mem = "%.1f GiB" % (int(line.split()[1]) / 1024 / 1024)
    except OSError:
        pass
    return "%s, %s CPUs, %s, %s memory, Linux %s" % (platform.machine(), cpus, model, mem, platform.release())


def run(exe, prog, args):
    """(wall seconds of the threaded part, cpu seconds of the process) or None on failure."""
    t0 = os.times()
    p = subprocess.run([exe, str(prog), *args], capture_output=True, text=True, timeout=600)
    t1 = os.times()
    cpu = (t1.children_user - t0.children_user) + (t1.children_system - t0.children_system)
    lines = p.stdout.split("\n")
    if p.returncode != 0 or not any(l.startswith("time ") for l in lines) or "LOST" in p.stdout:
        print("FAILED:", exe, prog.name, args, p.returncode, p.stdout[-200:], p.stderr[-300:], file=sys.stderr)
        return None
    wall = float([l for l in lines if l.startswith("time ")][0].split()[1])
    return wall, cpu


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tmpy", default=str(ROOT / "build" / "tmpy-gil"))
    ap.add_argument("--before")
    ap.add_argument("--python", default=sys.executable)
    ap.add_argument("--rounds", type=int, default=int(os.environ.get("TMPY_BENCH_REPEAT", "7")))
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--out", default=str(ROOT / "bench" / "results" / "condition_buffer.txt"))
    o = ap.parse_args()
    if o.quick:
        o.rounds = 1
    interps = [("python3", o.python), ("tmpy-gil", o.tmpy)]
    if o.before:
        interps.append(("before", o.before))
    load0 = os.getloadavg()[0]
    times = {(c[0], n): [] for c in CONFIGS for n, _ in interps}
    failed = False
    for _ in range(o.rounds):
        for label, prog, args in CONFIGS:
            for name, exe in interps:
                r = run(exe, prog, args)
                if r is None:
                    failed = True
                else:
                    times[(label, name)].append(r)
    load1 = os.getloadavg()[0]
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True,
                            text=True).stdout.strip()
    out = ["== condition_buffer: Condition bounded buffer and switch interval, tmpy-gil vs python3 ==",
           "date:     " + time.strftime("%Y-%m-%d %H:%M:%S UTC", time.gmtime()),
           "machine:  " + machine(),
           "python3:  %s (%s)" % (platform.python_version(), o.python),
           "tmpy:     %s (commit %s)" % (o.tmpy, commit)]
    if o.before:
        out.append("before:   " + o.before)
    out += ["command:  " + " ".join(sys.argv),
            "runs:     %d process(es) per cell, interleaved; wall = the threaded part's time" % o.rounds,
            "load:     %.2f at the start, %.2f at the end (1-minute load average)" % (load0, load1), ""]
    head = "%-34s" % "wall s: best / median"
    for name, _ in interps:
        head += " %17s" % name
    head += "   ratio to python3 (best, median)"
    out.append(head)
    for label, _, _ in CONFIGS:
        line = "%-34s" % label
        stats = {}
        for name, _ in interps:
            w = [t[0] for t in times[(label, name)]]
            if w:
                stats[name] = (min(w), statistics.median(w))
                line += " %8.3f / %6.3f" % stats[name]
            else:
                line += " %17s" % "failed"
        py = stats.get("python3")
        for name, _ in interps[1:]:
            if py and name in stats:
                line += "   %s %.2f, %.2f" % (name, stats[name][0] / py[0], stats[name][1] / py[1])
        out.append(line)
    out += ["", "cpu s (user+system of the whole process), median"]
    for label, _, _ in CONFIGS:
        line = "%-34s" % label
        for name, _ in interps:
            c = [t[1] for t in times[(label, name)]]
            line += " %17s" % ("%.3f" % statistics.median(c) if c else "failed")
        out.append(line)
    text = "\n".join(out) + "\n"
    print(text)
    if not o.quick:
        pathlib.Path(o.out).write_text(text)
    sys.exit(1 if failed else 0)


main()
