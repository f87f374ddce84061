#!/usr/bin/env python3
"""pyperformance's pure-Python benchmarks under python3, build/tmpy-gil and
build/tmpy (one thread), interleaved in one run, by CPU time.

  bench/pyperformance.py [--rounds R] [--target S] [--bench a,b] [--out FILE]
                         [NAME=BINARY[:ENV=V,...] ...]

Fetches pyperformance 1.11.0 and pyperf 2.11.0 with pip into a cache outside
the repository (TMPY_PYPERF_CACHE, default ~/.cache/tmpy-pyperformance; done
once), then runs every benchmark of pyperformance's MANIFEST that needs no
third-party package. tmpy cannot import pyperf itself (the script checks and
says why in the output), so every interpreter, python3 included, runs the
benchmark through bench/pyperf_shim/ (a small Runner with the same API that
runs each workload a fixed number of loops). The benchmarks' own timer is
CPU time (time.process_time): the machine is shared. Loops per value are set
once from python3 (about --target seconds); each round runs each benchmark
under each interpreter in turn, and the best value of all rounds is kept.

Writes bench/results/pyperformance.txt (or --out): time per loop, ratio to
python3, geometric means, the benchmarks that do not run and why."""
import argparse
import json
import math
import os
import pathlib
import platform
import subprocess
import sys
import tempfile
import time
import tomllib
import zipfile

ROOT = pathlib.Path(__file__).resolve().parent.parent
SHIM = ROOT / "bench" / "pyperf_shim" / "run_one.py"
CACHE = pathlib.Path(os.environ.get("TMPY_PYPERF_CACHE",
                                    pathlib.Path.home() / ".cache" / "tmpy-pyperformance"))
WHEELS = ("pyperformance==1.11.0", "pyperf==2.11.0")
TIMEOUT = 600


def fetch():
    """Downloads and unpacks the wheels once; returns the benchmarks folder."""
    unpacked = CACHE / "unpacked"
    benchmarks = unpacked / "pyperformance" / "data-files" / "benchmarks"
    if (benchmarks / "MANIFEST").exists() and (unpacked / "pyperf" / "__init__.py").exists():
        return benchmarks
    CACHE.mkdir(parents=True, exist_ok=True)
    subprocess.run([sys.executable, "-m", "pip", "download", "--no-deps", "-q", "-d", str(CACHE), *WHEELS],
                   check=True)
    tmp = CACHE / "unpacking"
    for whl in sorted(CACHE.glob("*.whl")):
        with zipfile.ZipFile(whl) as z:
            z.extractall(tmp)
    tmp.rename(unpacked)
    return benchmarks


def manifest(benchmarks):
    """(name, folder, extra options, third-party dependencies) per MANIFEST entry."""
    rows = []
    section = None
    for line in (benchmarks / "MANIFEST").read_text().splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        if line.startswith("["):
            section = line
            continue
        if section != "[benchmarks]" or line.startswith("name"):
            continue
        name, meta = line.split()
        folder = benchmarks / ("bm_" + (meta[len("<local:"):-1] if ":" in meta else name))
        toml = folder / f"bm_{name}.toml"
        if not toml.exists():
            toml = folder / "pyproject.toml"
        conf = tomllib.loads(toml.read_text())
        extra = conf.get("tool", {}).get("pyperformance", {}).get("extra_opts", [])
        deps = [d for d in conf.get("project", {}).get("dependencies", []) if d != "pyperf"]
        req = folder / "requirements.txt"
        if req.exists():
            deps += [r.strip() for r in req.read_text().splitlines() if r.strip() and not r.startswith("#")]
        rows.append((name, folder, extra, deps))
    return rows


def parse_binary(spec):
    name, _, rest = spec.partition("=")
    exe, _, envs = rest.partition(":")
    if "/" in exe:
        exe = os.path.abspath(exe)   # the benchmarks run in their own folder
    env = dict(os.environ)
    for kv in filter(None, envs.split(",")):
        k, _, v = kv.partition("=")
        env[k] = v
    return name, exe, env


def run(exe, env, folder, extra, loops, values, warmup):
    """Runs one benchmark script; returns ({sub-benchmark: seconds per loop list}, error or None)."""
    with tempfile.NamedTemporaryFile("r", suffix=".jsonl") as out:
        e = dict(env, TMPY_SHIM_LOOPS=json.dumps(loops), TMPY_SHIM_VALUES=str(values),
                 TMPY_SHIM_WARMUP=str(warmup), TMPY_SHIM_OUT=out.name)
        try:
            p = subprocess.run([exe, str(SHIM), str(folder / "run_benchmark.py"), *extra], env=e,
                               cwd=folder, capture_output=True, text=True, timeout=TIMEOUT)
        except subprocess.TimeoutExpired:
            return {}, f"timed out after {TIMEOUT} s"
        res = {}
        for line in out.read().splitlines():
            row = json.loads(line)
            res[row["name"]] = [t / (row["loops"] * row["inner_loops"]) for t in row["time"]]
        if p.returncode != 0:
            err = (p.stderr.strip().splitlines() or ["exit status %d" % p.returncode])[-1]
            return res, err[:160]
        return res, None


def pyperf_probe(exe, env):
    """Whether the interpreter can import the real pyperf (it then could run it itself)."""
    p = subprocess.run([exe, "-c", "import pyperf"], env=dict(env, PYTHONPATH=str(CACHE / "unpacked")),
                       capture_output=True, text=True, timeout=60)
    if p.returncode == 0:
        return "imports pyperf"
    return "cannot import pyperf: " + (p.stderr.strip().splitlines() or ["?"])[-1]


def geomean(xs):
    return math.exp(sum(map(math.log, xs)) / len(xs)) if xs else float("nan")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--values", type=int, default=1, help="values per benchmark per round")
    ap.add_argument("--target", type=float, default=0.25, help="seconds of python3 CPU per value")
    ap.add_argument("--bench", default="", help="comma-separated MANIFEST names (default all)")
    ap.add_argument("--skip", default="", help="comma-separated MANIFEST names or prefixes* not to run "
                    "(listed as skipped)")
    ap.add_argument("--out", default=str(ROOT / "bench" / "results" / "pyperformance.txt"))
    ap.add_argument("--pairs", default="",
                    help="extra ratio columns A/B, comma-separated (default: the third binary / the second)")
    ap.add_argument("binaries", nargs="*")
    a = ap.parse_args()
    specs = a.binaries or ["python3=python3", f"tmpy-gil={ROOT}/build/tmpy-gil", f"tmpy={ROOT}/build/tmpy"]
    bins = [parse_binary(s) for s in specs]
    benchmarks = fetch()
    wanted = set(filter(None, a.bench.split(",")))
    skip = list(filter(None, a.skip.split(",")))
    lines = []

    def out(s=""):
        print(s, flush=True)
        lines.append(s)

    cpu = open("/proc/cpuinfo").read().split("model name")[1].split("\n")[0].split(":", 1)[1].strip()
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True,
                            text=True).stdout.strip()
    out("== pyperformance 1.11.0 pure-Python benchmarks, one thread, CPU time ==")
    out("date:     " + time.strftime("%Y-%m-%d %H:%M:%S UTC", time.gmtime()))
    out(f"machine:  {platform.machine()}, {os.cpu_count()} CPUs, {cpu}; commit {commit}")
    out("python3:  " + subprocess.run(["python3", "-c", "import sys; print(sys.version.split()[0])"],
                                      capture_output=True, text=True).stdout.strip())
    for n, exe, env in bins:
        out(f"{n:9} {exe}: {pyperf_probe(exe, env)}")
    out("harness:  bench/pyperf_shim (pyperf's Runner API, CPU-time clock) for every interpreter;")
    out(f"          loops set from {bins[0][0]} for ~{a.target} s per value; {a.rounds} rounds x "
        f"{a.values} value(s), interleaved; best kept; time per loop")
    load0 = os.getloadavg()

    skipped = []
    todo = []
    for name, folder, extra, deps in manifest(benchmarks):
        if wanted and name not in wanted:
            continue
        if any(name == s or (s.endswith("*") and name.startswith(s[:-1])) for s in skip):
            skipped.append((name, "skipped in this run (--skip)"))
        elif deps:
            skipped.append((name, "needs third-party packages: " + ", ".join(deps)))
        else:
            todo.append((name, folder, extra))

    # Calibration under the first interpreter, loops=1.
    loops = {}
    base_n, base_exe, base_env = bins[0]
    for name, folder, extra in todo:
        res, err = run(base_exe, base_env, folder, extra, {}, 1, 0)
        if err and not res:
            loops[name] = None
            skipped.append((name, f"{base_n}: {err}"))
            continue
        loops[name] = {sub: max(1, round(a.target / max(t[0], 1e-6))) for sub, t in res.items()}
    todo = [t for t in todo if loops[t[0]] is not None]

    best = {}     # (sub, interp) -> best seconds per loop
    errors = {}   # (name, interp) -> message
    subs = {}     # name -> sub-benchmark names in order
    for r in range(a.rounds):
        for name, folder, extra in todo:
            subs.setdefault(name, list(loops[name]))
            for n, exe, env in bins:
                if (name, n) in errors:
                    continue
                res, err = run(exe, env, folder, extra, loops[name], a.values, 1)
                if err:
                    errors[(name, n)] = err
                for sub, ts in res.items():
                    k = (sub, n)
                    best[k] = min([best.get(k, float("inf"))] + ts)
        print(f"round {r + 1}/{a.rounds} done, load {os.getloadavg()[0]:.2f}", file=sys.stderr, flush=True)
    load1 = os.getloadavg()
    out(f"load:     {load0[0]:.2f} {load0[1]:.2f} {load0[2]:.2f} at start, "
        f"{load1[0]:.2f} {load1[1]:.2f} {load1[2]:.2f} at end (1/5/15 min)")
    out()
    names = [n for n, _, _ in bins]
    pairs = [(n, names[0]) for n in names[1:]]
    if a.pairs:
        pairs += [tuple(p.split("/")) for p in a.pairs.split(",")]
    elif len(names) > 2:
        pairs.append((names[2], names[1]))
    head = f"{'benchmark':24}" + "".join(f"{n + ' ms':>14}" for n in names) + \
        "".join(f"{x + '/' + y:>{max(10, len(x) + len(y) + 2)}}" for x, y in pairs)
    out(head)
    ratios = {p: [] for p in pairs}
    for name, _, _ in todo:
        for sub in subs.get(name, []):
            row = f"{sub:24}"
            ts = {n: best.get((sub, n)) for n in names}
            for n in names:
                row += f"{ts[n] * 1e3:14.3f}" if ts[n] else f"{'fails':>14}"
            for x, y in pairs:
                w = max(10, len(x) + len(y) + 2)
                if ts[x] and ts[y]:
                    r = ts[x] / ts[y]
                    ratios[(x, y)].append(r)
                    row += f"{r:{w - 1}.2f}x"
                else:
                    row += f"{'-':>{w}}"
            out(row)
    out()
    for (x, y), rs in ratios.items():
        slower = sum(1 for r in rs if r > 1.0)
        out(f"geometric mean {x}/{y}: {geomean(rs):.2f}x over {len(rs)} benchmarks "
            f"({slower} above 1.0, max {max(rs, default=float('nan')):.2f}x)")
    out()
    out("do not run:")
    for (name, n), err in sorted(errors.items()):
        out(f"  {name:26} under {n}: {err}")
    for name, why in skipped:
        out(f"  {name:26} {why}")
    pathlib.Path(a.out).write_text("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
