#!/usr/bin/env python3
"""Peak RSS (and wall time) of bench's held programs under python3,
build/tmpy-gil and build/tmpy, interleaved in one run.

  bench/memory.py [--rounds R] [--file-mb M] [--only a,b] [--out FILE]
                  [NAME=BINARY[:ENV=V,...] ...]

The programs: a word count and a tree building (bench/parallel/, at 1 and 2
threads), the ray tracer (bench/py/raytrace.py) and reading a file of
--file-mb MB (default 200; made once in a temporary folder) in 1 MiB chunks
and whole (bench/memory/file_read.py), and `-c pass` (start-up alone).

Peak RSS is the kernel's high-water mark of the process (ru_maxrss, as
/usr/bin/time -f %M prints it, which runs each program): every page mapped counts,
shared ones too, and a page mapped at two addresses counts twice. Each
program runs R rounds under each interpreter in turn; the smallest peak and
the best time are kept. Every interpreter must print what python3 prints.
The interpreters are python3, build/tmpy-gil and build/tmpy unless given as
NAME=BINARY[:ENV=V,...] (e.g. tmpy-4m=build/tmpy:TMPY_NURSERY_SIZE=4M); the
ratios are to the first two, python3 and tmpy-gil by default.

Writes bench/results/memory.txt (or --out)."""
import argparse
import os
import pathlib
import platform
import subprocess
import sys
import tempfile
import time

ROOT = pathlib.Path(__file__).resolve().parent.parent
TIMEOUT = 300
TIME = "/usr/bin/time"   # GNU time: -f %M prints the peak RSS in KB

# (name, argv after the interpreter); {file} is the file to read.
PROGRAMS = [
    ("start-up (-c pass)", ["-c", "pass"]),
    ("word_count 1t", ["bench/parallel/word_count.py", "1"]),
    ("word_count 2t", ["bench/parallel/word_count.py", "2"]),
    ("tree_inserts_locked 1t", ["bench/parallel/tree_inserts_locked.py", "1"]),
    ("tree_inserts_locked 2t", ["bench/parallel/tree_inserts_locked.py", "2"]),
    ("raytrace", ["bench/py/raytrace.py"]),
    ("file read, 1 MiB chunks", ["bench/memory/file_read.py", "chunks", "{file}"]),
    ("file read, whole", ["bench/memory/file_read.py", "whole", "{file}"]),
]


def parse_interpreter(spec):
    name, _, rest = spec.partition("=")
    binary, _, envs = rest.partition(":")
    env = dict(e.split("=", 1) for e in envs.split(",") if e)
    return name, binary, env


def measure(binary, env, argv):
    """(peak RSS in KB, wall seconds, stdout), or (None, None, why).
    Through /usr/bin/time: a child this script forks or vforks starts with
    the script's own high-water mark (exec keeps the larger of the two),
    which hid every peak under python3's 18 MB; /usr/bin/time's child is
    forked from a small process."""
    full_env = dict(os.environ, **env)
    with tempfile.NamedTemporaryFile("r") as rss, tempfile.TemporaryFile() as err:
        t0 = time.perf_counter()
        try:
            p = subprocess.run([TIME, "-f", "%M", "-o", rss.name, binary, *argv], cwd=ROOT, env=full_env,
                               stdout=subprocess.PIPE, stderr=err, timeout=TIMEOUT)
        except subprocess.TimeoutExpired:
            return None, None, "TIMEOUT"
        wall = time.perf_counter() - t0
        text = p.stdout.decode(errors="replace")
        if p.returncode != 0:
            err.seek(0)
            why = err.read().decode(errors="replace").strip().splitlines()
            return None, None, f"exit {p.returncode}: {why[-1] if why else ''}"
        return int(rss.read().split()[-1]), wall, text


def make_file(folder, mb):
    """A text file of mb MB: numbered lines of 64 bytes."""
    path = pathlib.Path(folder) / f"read_{mb}mb.txt"
    line_count = mb * (1 << 20) // 64
    with open(path, "w") as f:
        block = []
        for i in range(line_count):
            block.append(f"{i:012d} the quick brown fox jumps over the lazy dog {i % 97:03d}\n"[:63] + "\n")
            if len(block) == 16384:
                f.write("".join(block))
                block = []
        f.write("".join(block))
    return path


def header(interps, rounds, file_mb, load0):
    def rev():
        try:
            return subprocess.run(["git", "log", "-1", "--format=%h %s"], cwd=ROOT, capture_output=True,
                                  text=True).stdout.strip()[:90]
        except OSError:
            return "?"
    cpu = "?"
    try:
        for line in open("/proc/cpuinfo"):
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    dirty = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"], cwd=ROOT,
                           capture_output=True, text=True).stdout.strip()
    lines = [
        f"date:     {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}",
        f"cpu:      {cpu}",
        f"nproc:    {os.cpu_count()}",
        f"kernel:   {platform.release()}",
        f"python3:  {platform.python_version()}",
        f"load:     {load0} at the start, {' '.join(f'{x:.2f}' for x in os.getloadavg())} at the end",
        f"commit:   {rev()}{' (dirty)' if dirty else ''}",
        f"rounds:   {rounds} (interleaved; smallest peak RSS and best time kept); file read: {file_mb} MB",
        "interpreters: " + ", ".join(f"{n}={b}" + (":" + ",".join(f"{k}={v}" for k, v in e.items()) if e else "")
                                     for n, b, e in interps),
    ]
    return lines


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--file-mb", type=int, default=200)
    ap.add_argument("--only", default="", help="comma-separated substrings of program names")
    ap.add_argument("--out", default=str(ROOT / "bench" / "results" / "memory.txt"))
    ap.add_argument("interpreters", nargs="*")
    a = ap.parse_args()
    if not os.access(TIME, os.X_OK):
        sys.exit(f"{TIME} (GNU time) is needed: it measures each program's peak RSS")
    interps = [parse_interpreter(s) for s in a.interpreters] or [
        ("python3", sys.executable, {}),
        ("tmpy-gil", str(ROOT / "build" / "tmpy-gil"), {}),
        ("tmpy", str(ROOT / "build" / "tmpy"), {}),
    ]
    programs = [p for p in PROGRAMS if not a.only or any(s in p[0] for s in a.only.split(","))]
    load0 = " ".join(f"{x:.2f}" for x in os.getloadavg())
    with tempfile.TemporaryDirectory(prefix="tmpy-memory-") as folder:
        path = None
        if any("{file}" in " ".join(argv) for _, argv in programs):
            path = make_file(folder, a.file_mb)
        best = {}      # (program, interp) -> [rss, wall]
        failed = {}    # (program, interp) -> why
        outputs = {}   # program -> reference output
        for r in range(a.rounds):
            for prog, argv in programs:
                argv = [x.replace("{file}", str(path)) for x in argv]
                for name, binary, env in interps:
                    key = (prog, name)
                    if key in failed:
                        continue
                    rss, wall, text = measure(binary, env, argv)
                    if rss is None:
                        failed[key] = text
                        continue
                    ref = outputs.setdefault(prog, text)
                    if text != ref:
                        failed[key] = f"printed {text.strip()[:60]!r}, not {ref.strip()[:60]!r}"
                        continue
                    b = best.setdefault(key, [rss, wall])
                    b[0], b[1] = min(b[0], rss), min(b[1], wall)
                    print(f"round {r + 1} {prog:26} {name:10} {rss / 1024:8.1f} MB {wall:7.2f} s", flush=True)
    lines = header(interps, a.rounds, a.file_mb, load0)
    names = [n for n, _, _ in interps]
    r0, r1 = names[0], names[1] if len(names) > 1 else names[0]
    lines += ["", "== Peak RSS in MB (ru_maxrss), and the ratios " + ", ".join(
        f"{n}/{r1 if n != r1 else r0}" for n in names[1:]) + "; then wall time in s (best)."]
    cols = "".join(f"{n:>11}" for n in names)
    ratios = "".join(f"{(n + '/' + (r1 if n != r1 else r0))[:17]:>18}" for n in names[1:])
    lines.append(f"{'program':28}{cols}{ratios}   time: {' '.join(f'{n:>9}' for n in names)}")
    for prog, _ in programs:
        row = f"{prog:28}"
        for n in names:
            row += f"{best[(prog, n)][0] / 1024:11.1f}" if (prog, n) in best else f"{'FAIL':>11}"
        for n in names[1:]:
            ref = r1 if n != r1 else r0
            if (prog, n) in best and (prog, ref) in best:
                row += f"{best[(prog, n)][0] / best[(prog, ref)][0]:17.2f}x"
            else:
                row += f"{'-':>18}"
        row += "         " + " ".join(f"{best[(prog, n)][1]:9.2f}" if (prog, n) in best else f"{'-':>9}"
                                      for n in names)
        lines.append(row)
    if failed:
        lines += ["", "== Failures"]
        lines += [f"{p} under {n}: {why}" for (p, n), why in sorted(failed.items())]
    text = "\n".join(lines) + "\n"
    print(text)
    if a.out != "-":
        pathlib.Path(a.out).write_text(text)


if __name__ == "__main__":
    main()
