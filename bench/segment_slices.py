#!/usr/bin/env python3
"""Threads outnumbering segments (issue 20): bench/parallel programs at
several thread counts under two or more binaries, run interleaved (each
round runs every program, thread count and binary once), reporting per
cell the best wall time, the median CPU time (user + sys), the median
voluntary and involuntary context switches of the process, and, for STM
binaries, TMPY_STATS=1's segment waits and commits that kept their segment.
On a loaded machine wall time is mostly noise; CPU time and the counts are
what to compare.

  bench/segment_slices.py [--rounds R] [--programs a,b] [--threads 2,4,8] [--size-div D]
                          [--out FILE] NAME=BINARY[:ENV=V,...] ...
Example:
  bench/segment_slices.py before=/tmp/sched_before/tmpy after=build/tmpy gil=build/tmpy-gil"""
import argparse
import datetime
import os
import pathlib
import platform
import re
import resource
import statistics
import subprocess
import sys
import time

ROOT = pathlib.Path(__file__).resolve().parent.parent
PROGRAMS = ROOT / "bench" / "parallel"
SIZES = {"while_loop": 14000000, "read_mostly_dict": None, "shared_object_attr_reads": None,
         "locked_counters": 2400000, "tree_inserts_locked": 200000, "queue_pipeline": 160000,
         "dict_inserts_and_locked_counters": None}


def parse_binary(spec):
    name, _, rest = spec.partition("=")
    exe, _, envs = rest.partition(":")
    env = dict(os.environ)
    for kv in filter(None, envs.split(",")):
        k, _, v = kv.partition("=")
        env[k] = v
    return name, str(pathlib.Path(exe).resolve()), env


def run_once(exe, env, prog, threads, size):
    args = [exe, str(PROGRAMS / f"{prog}.py"), str(threads)] + ([str(size)] if size else [])
    env = dict(env, TMPY_STATS="1")
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.monotonic()
    p = subprocess.run(args, capture_output=True, text=True, timeout=600, env=env, cwd=PROGRAMS)
    wall = time.monotonic() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if p.returncode != 0:
        sys.exit(f"{exe} {prog} {threads}: exit {p.returncode}\n{p.stderr[-2000:]}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    m = re.search(r"segment (\d+) \(", p.stderr)
    k = re.search(r"(\d+) commits kept their segment", p.stderr)
    return {"wall": wall, "cpu": cpu, "vcs": after.ru_nvcsw - before.ru_nvcsw,
            "ivcs": after.ru_nivcsw - before.ru_nivcsw, "segwaits": int(m.group(1)) if m else None,
            "kept": int(k.group(1)) if k else None, "out": p.stdout}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--programs", default="while_loop,read_mostly_dict,shared_object_attr_reads")
    ap.add_argument("--threads", default="2,4,8")
    ap.add_argument("--size-div", type=int, default=1)
    ap.add_argument("--out")
    ap.add_argument("binaries", nargs="+")
    a = ap.parse_args()
    bins = [parse_binary(s) for s in a.binaries]
    progs = a.programs.split(",")
    threads = [int(t) for t in a.threads.split(",")]
    res = {}
    load0 = os.getloadavg()
    for _ in range(a.rounds):
        for prog in progs:
            size = SIZES.get(prog)
            size = size // a.size_div if size else None
            for t in threads:
                for name, exe, env in bins:
                    r = run_once(exe, env, prog, t, size)
                    res.setdefault((prog, t, name), []).append(r)
    load1 = os.getloadavg()
    lines = [f"date:     {datetime.datetime.utcnow():%Y-%m-%d %H:%M} UTC",
             f"machine:  {platform.machine()}, {os.cpu_count()} CPUs, {platform.release()}",
             f"command:  bench/segment_slices.py {' '.join(sys.argv[1:])}",
             f"load:     {load0[0]:.2f} at the start, {load1[0]:.2f} at the end (1-minute load average)",
             f"rounds:   {a.rounds}, interleaved; wall = best, the rest = median",
             "",
             f"{'program':28} {'thr':>3} {'binary':10} {'wall s':>7} {'cpu s':>7} {'vol cs':>8} {'invol cs':>9}"
             f" {'seg waits':>10} {'kept':>7}"]
    for prog in progs:
        for t in threads:
            for name, _, _ in bins:
                rs = res[(prog, t, name)]
                med = lambda k: statistics.median(r[k] for r in rs)
                sw = "-" if rs[0]["segwaits"] is None else f"{med('segwaits'):.0f}"
                kept = "-" if rs[0]["kept"] is None else f"{med('kept'):.0f}"
                lines.append(f"{prog:28} {t:>3} {name:10} {min(r['wall'] for r in rs):7.2f} {med('cpu'):7.2f}"
                             f" {med('vcs'):8.0f} {med('ivcs'):9.0f} {sw:>10} {kept:>7}")
    text = "\n".join(lines) + "\n"
    print(text, end="")
    if a.out:
        pathlib.Path(a.out).write_text(text)


if __name__ == "__main__":
    main()
