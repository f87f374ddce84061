#!/usr/bin/env python3
"""What users feel when threads share data: every program of bench/parallel/
at 1, 2, 4 and 8 threads (the same total work at each count) under
build/tmpy (STM), build/tmpy-gil and python3, in one run: the runs are
interleaved (each round runs every program, thread count and build once) and
the best of --repeat rounds is kept. A run longer than --timeout seconds is
killed and reported as TIMEOUT (and not tried again); every run's output must
equal the others' (python3's at the fewest threads when there is one), else
WRONG. Writes bench/results/parallel.txt (wall times, tmpy/tmpy-gil at the
same thread count, speed-ups over tmpy-gil at 1 thread, CPU times, the
machine, and build/tmpy's TMPY_STATS=1 report for the programs where tmpy
does worst), the plot bench/results/parallel.png (matplotlib, installed
with pip when missing) and the raw results bench/results/parallel.json
(--from-json FILE renders a saved run again). With --quick: sizes / 10, one
round (unless --repeat), nothing written unless --out/--plot/--json are given.

  bench/parallel.py [--programs P,...] [--threads 1,2,4,8] [--builds tmpy,tmpy-gil,python3]
                    [--repeat K] [--timeout S] [--quick] [--stats N]
                    [--out FILE] [--plot FILE] [--json FILE] [--from-json FILE]

--programs takes program names (file names without .py) or the groups
`shared` and `independent`. TMPY_BENCH_REPEAT sets the default of --repeat.
Exit status 1 if a run crashed or printed a wrong result (timeouts are
reported, not failures: a slow build is what this measures)."""
import argparse
import datetime
import json
import math
import os
import pathlib
import platform
import re
import resource
import subprocess
import sys
import time

ROOT = pathlib.Path(__file__).resolve().parent.parent
PROGRAM_DIR = ROOT / "bench" / "parallel"
# The table's order: the programs on shared data, then the independent ones.
SHARED = ["dict_distinct_key_inserts", "set_add_discard", "dict_value_updates", "locked_counters", "queue_pipeline", "list_appends",
          "tree_inserts_locked", "word_count", "read_mostly_dict", "shared_object_attr_reads",
          "dict_inserts_and_locked_counters"]
INDEPENDENT = ["while_loop", "iterator_loop", "countdown", "mandelbrot", "nbody"]
BUILDS = {"tmpy": str(ROOT / "build" / "tmpy"), "tmpy-gil": str(ROOT / "build" / "tmpy-gil"),
          "python3": sys.executable}


class Run:
    """One program at one thread count under one build: the best wall time
    (and that run's CPU time) over the rounds, or what went wrong."""

    def __init__(self):
        self.wall = self.cpu = None
        self.outputs = set()
        self.status = "ok"      # ok, TIMEOUT or FAIL (then it is not run again)
        self.error = ""
        self.wrong = False      # printed another result than the program's reference output

    def good(self):
        """A time to compare: it finished with the right result (maybe timing out in another round)."""
        return self.wall is not None and not self.wrong and self.status != "FAIL"

    def cell(self):
        if self.wall is None:
            return self.status if self.status != "ok" else "-"
        marks = ("W" if self.wrong else "") + {"ok": "", "TIMEOUT": "T", "FAIL": "F"}[self.status]
        return f"{self.wall:.2f}" + (" " + marks if marks else "")


def program_size(name):
    """The program's own SIZE (its default total work)."""
    m = re.search(r"^SIZE = (\d+)$", (PROGRAM_DIR / f"{name}.py").read_text(), re.M)
    if not m:
        raise SystemExit(f"bench/parallel/{name}.py has no `SIZE = N` line")
    return int(m.group(1))


def run_once(exe, name, threads, size, timeout, env=None):
    """(wall seconds, CPU seconds, stdout, stderr, returncode), or None for stdout on a timeout."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    try:
        p = subprocess.run([exe, str(PROGRAM_DIR / f"{name}.py"), str(threads), str(size)],
                           capture_output=True, text=True, timeout=timeout, env=env, cwd=ROOT)
    except subprocess.TimeoutExpired as e:
        err = e.stderr.decode(errors="replace") if isinstance(e.stderr, bytes) else (e.stderr or "")
        return time.perf_counter() - start, None, None, err, None
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu, p.stdout, p.stderr, p.returncode


def machine(load_start):
    cpu = "unknown"
    try:
        for line in open("/proc/cpuinfo"):
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    load_end = os.getloadavg()
    commit = subprocess.run(["git", "describe", "--always", "--dirty", "--abbrev=10"], cwd=ROOT,
                            capture_output=True, text=True).stdout.strip()
    subject = subprocess.run(["git", "log", "-1", "--format=%s"], cwd=ROOT,
                             capture_output=True, text=True).stdout.strip()
    return [f"date:     {datetime.datetime.now().astimezone().strftime('%Y-%m-%d %H:%M %Z')}",
            f"cpu:      {cpu}", f"nproc:    {os.cpu_count()}", f"kernel:   {platform.release()}",
            f"python3:  {platform.python_version()}",
            f"load:     {load_start[0]:.2f} {load_start[1]:.2f} {load_start[2]:.2f} at the start, "
            f"{load_end[0]:.2f} {load_end[1]:.2f} {load_end[2]:.2f} at the end (1/5/15 min)",
            f"commit:   {commit} ({subject[:80]})"]


def parse_args():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--programs", default="shared,independent")
    ap.add_argument("--threads", default="1,2,4,8")
    ap.add_argument("--builds", default="tmpy,tmpy-gil,python3")
    ap.add_argument("--repeat", type=int, help="rounds, the best kept (default TMPY_BENCH_REPEAT or 3; "
                    "1 with --quick)")
    ap.add_argument("--timeout", type=float, default=30.0, help="seconds a run may take (default 30)")
    ap.add_argument("--quick", action="store_true", help="sizes / 10, one round, no files written")
    ap.add_argument("--stats", type=int, default=2,
                    help="TMPY_STATS=1 reports of build/tmpy for this many worst programs (default 2)")
    ap.add_argument("--out", help="the table's file (default bench/results/parallel.txt)")
    ap.add_argument("--plot", help="the plot's file (default bench/results/parallel.png)")
    ap.add_argument("--json", help="the raw results' file (default bench/results/parallel.json)")
    ap.add_argument("--from-json", metavar="FILE",
                    help="run nothing: the table and plot of a saved run (to --out/--plot if given)")
    a = ap.parse_args()
    programs = []
    for p in a.programs.split(","):
        p = p.strip().removesuffix(".py")
        group = {"shared": SHARED, "independent": INDEPENDENT}.get(p, [p])
        for name in group:
            if not (PROGRAM_DIR / f"{name}.py").exists():
                ap.error(f"no program bench/parallel/{name}.py")
            if name not in programs:
                programs.append(name)
    a.programs = programs
    a.threads = [int(t) for t in a.threads.split(",")]
    a.builds = [b.strip() for b in a.builds.split(",")]
    for b in a.builds:
        if b not in BUILDS:
            ap.error(f"unknown build {b} (builds: {', '.join(BUILDS)})")
        if not os.access(BUILDS[b], os.X_OK):
            ap.error(f"{BUILDS[b]} is missing: `make all` first")
    if a.repeat is None:
        a.repeat = 1 if a.quick else int(os.environ.get("TMPY_BENCH_REPEAT", "3"))
    if not a.quick and not a.from_json:
        a.out = a.out or str(ROOT / "bench" / "results" / "parallel.txt")
        a.plot = a.plot or str(ROOT / "bench" / "results" / "parallel.png")
        a.json = a.json or str(ROOT / "bench" / "results" / "parallel.json")
    return a


def measure(a, sizes):
    """Runs every configuration --repeat times, interleaved; returns {(program, build, threads): Run}."""
    runs = {(p, b, t): Run() for p in a.programs for b in a.builds for t in a.threads}
    for rnd in range(a.repeat):
        for p in a.programs:
            for t in a.threads:
                for b in a.builds:
                    r = runs[(p, b, t)]
                    if r.status != "ok":
                        continue        # a run that timed out or crashed is not tried again
                    wall, cpu, out, err, rc = run_once(BUILDS[b], p, t, sizes[p], a.timeout)
                    if out is None:
                        r.status, r.error = "TIMEOUT", f"not done in {a.timeout:g} s"
                        shown = "TIMEOUT"
                    elif rc != 0:
                        r.status, r.error = "FAIL", f"exit status {rc}: {err.strip()[-400:]}"
                        shown = f"FAIL ({rc})"
                    else:
                        r.outputs.add(out)
                        if r.wall is None or wall < r.wall:
                            r.wall, r.cpu = wall, cpu
                        shown = f"{wall:.2f} s"
                    print(f"round {rnd + 1}/{a.repeat}  {p:34} {b:9} {t}t  {shown}", file=sys.stderr,
                          flush=True)
    return runs


def reference_outputs(a, runs):
    """Each program's expected output: python3's at the fewest threads if it
    ran, else the most common one among the runs."""
    ref = {}
    for p in a.programs:
        if "python3" in a.builds and len(runs[(p, "python3", a.threads[0])].outputs) == 1:
            ref[p] = next(iter(runs[(p, "python3", a.threads[0])].outputs))
            continue
        seen = {}
        for b in a.builds:
            for t in a.threads:
                for o in runs[(p, b, t)].outputs:
                    seen[o] = seen.get(o, 0) + 1
        ref[p] = max(seen, key=seen.get) if seen else None
    return ref


def tmpy_vs_gil(a, runs, p, t):
    """(tmpy / tmpy-gil wall time at t threads, whether it is only a lower
    bound because tmpy timed out), or None."""
    if "tmpy" not in a.builds or "tmpy-gil" not in a.builds:
        return None
    s, g = runs[(p, "tmpy", t)], runs[(p, "tmpy-gil", t)]
    if not g.good():
        return None
    if s.good():
        return s.wall / g.wall, False
    if s.status == "TIMEOUT":
        return a.timeout / g.wall, True
    return None


def table(a, sizes, runs, ref):
    lines = []
    col = 10
    heads = "".join(f"{str(t) + 't':>{col}}" for t in a.threads)

    def group_rows(row_for):
        for title, group in (("shared data", SHARED), ("independent", INDEPENDENT),
                             ("other", [p for p in a.programs if p not in SHARED + INDEPENDENT])):
            names = [p for p in group if p in a.programs]
            if names:
                lines.append(title)
                for p in names:
                    row_for(p)

    lines.append(f"== Wall time in seconds of the whole process, best of {a.repeat}. TIMEOUT: killed "
                 f"after {a.timeout:g} s; FAIL:")
    lines.append("   crashed or exited non-zero (then not run again). After a time, T: another round timed "
                 "out; F: another")
    lines.append("   round failed; W: printed another result than the reference (see Failures).")
    lines.append(f"{'program (size)':44}{'build':10}" + heads)

    def wall_rows(p):
        for i, b in enumerate(a.builds):
            label = f"  {p} ({sizes[p]})" if i == 0 else ""
            lines.append(f"{label:44}{b:10}" + "".join(
                f"{runs[(p, b, t)].cell():>{col}}" for t in a.threads))
    group_rows(wall_rows)

    if "tmpy" in a.builds and "tmpy-gil" in a.builds:
        lines += ["", "== tmpy / tmpy-gil wall time at the same thread count (above 1: tmpy is slower; "
                  "'>': tmpy timed out)", f"{'program':54}" + heads]

        def ratio_row(p):
            cells = []
            for t in a.threads:
                r = tmpy_vs_gil(a, runs, p, t)
                cells.append("-" if r is None else (">" if r[1] else "") + f"{r[0]:.2f}")
            lines.append(f"  {p:52}" + "".join(f"{c:>{col}}" for c in cells))
        group_rows(ratio_row)

    if "tmpy-gil" in a.builds and 1 in a.threads:
        lines += ["", "== Speed-up over tmpy-gil at 1 thread (its time / this time; above 1: faster)",
                  f"{'program':44}{'build':10}" + heads]

        def speedup_rows(p):
            base = runs[(p, "tmpy-gil", 1)]
            for i, b in enumerate(a.builds):
                cells = []
                for t in a.threads:
                    r = runs[(p, b, t)]
                    if not base.good():
                        cells.append("-")
                    elif r.good():
                        cells.append(f"{base.wall / r.wall:.2f}")
                    elif r.status == "TIMEOUT":
                        cells.append(f"<{base.wall / a.timeout:.2f}")
                    else:
                        cells.append("WRONG" if r.wrong and r.status == "ok" else r.status)
                label = f"  {p}" if i == 0 else ""
                lines.append(f"{label:44}{b:10}" + "".join(f"{c:>{col}}" for c in cells))
        group_rows(speedup_rows)

    lines += ["", "== CPU seconds (user + sys) of the kept run, and in brackets CPU / wall (the cores it "
              f"kept busy, at most {os.cpu_count()})", f"{'program':44}{'build':10}" + "".join(
                  f"{str(t) + 't':>{col + 7}}" for t in a.threads)]

    def cpu_rows(p):
        for i, b in enumerate(a.builds):
            cells = []
            for t in a.threads:
                r = runs[(p, b, t)]
                cells.append(f"{r.cpu:.2f} ({r.cpu / r.wall:.2f})" if r.wall is not None else "-")
            label = f"  {p}" if i == 0 else ""
            lines.append(f"{label:44}{b:10}" + "".join(f"{c:>{col + 7}}" for c in cells))
    group_rows(cpu_rows)

    problems = [(k, r) for k, r in runs.items() if r.status == "FAIL" or r.wrong]
    if problems:
        lines += ["", "== Failures"]
        for (p, b, t), r in problems:
            if r.status == "FAIL":
                lines.append(f"  {p} {b} {t}t: {r.error}")
            else:
                got = " | ".join([o.strip()[:200] for o in sorted(r.outputs) if o != ref[p]][:2])
                lines.append(f"  {p} {b} {t}t printed: {got}")
                lines.append(f"    expected: {(ref[p] or '').strip()[:200]}")
    return lines


def stats_reports(a, sizes, runs):
    """build/tmpy's TMPY_STATS=1 report for the a.stats programs with the
    worst tmpy/tmpy-gil ratio, at the thread count where it is worst (a run
    that times out is retried at a tenth of the size, then a hundredth)."""
    worst = []
    for p in a.programs:
        for t in a.threads:
            r = tmpy_vs_gil(a, runs, p, t)
            if r is not None:
                worst.append((r[1], r[0], p, t))
    best_per_program = {}
    for timed_out, ratio, p, t in sorted(worst, reverse=True):
        best_per_program.setdefault(p, (timed_out, ratio, t))
    chosen = sorted(best_per_program.items(), key=lambda kv: kv[1], reverse=True)[:a.stats]
    lines = []
    env = dict(os.environ, TMPY_STATS="1")
    for p, (timed_out, ratio, t) in chosen:
        size = sizes[p]
        for attempt in range(3):
            wall, cpu, out, err, rc = run_once(BUILDS["tmpy"], p, t, size, a.timeout, env)
            if out is not None:
                break
            size //= 10
        ratio_text = (">" if timed_out else "") + f"{ratio:.2f}"
        lines += ["", f"== TMPY_STATS=1 build/tmpy bench/parallel/{p}.py {t} {size}   "
                  f"(tmpy/tmpy-gil {ratio_text} at {t} threads)"]
        if out is None:
            lines.append(f"  not done in {a.timeout:g} s even at size {size}: no report")
            continue
        lines.append(f"  wall {wall:.2f} s, CPU {cpu:.2f} s, exit status {rc}")
        for line in err.splitlines():
            lines.append("  " + line.replace(str(ROOT) + "/", ""))
    return lines


def plot(a, runs, path):
    try:
        import matplotlib
    except ImportError:
        subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "matplotlib"])
        try:
            import matplotlib
        except ImportError:
            print("matplotlib is missing and pip could not install it: no plot", file=sys.stderr)
            return
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.ticker import FormatStrFormatter, LogLocator, NullFormatter
    names = [p for p in SHARED + INDEPENDENT if p in a.programs] + \
            [p for p in a.programs if p not in SHARED + INDEPENDENT]
    cols = 4
    rows = math.ceil(len(names) / cols)
    fig, axes = plt.subplots(rows, cols, figsize=(4 * cols, 3.2 * rows), squeeze=False)
    colors = {"tmpy": "tab:red", "tmpy-gil": "tab:blue", "python3": "tab:green"}
    for ax, p in zip(axes.flat, names):
        shown = [r.wall if r.good() else a.timeout for b in a.builds for t in a.threads
                 for r in [runs[(p, b, t)]] if r.good() or r.status != "ok" or r.wrong]
        wide = bool(shown) and max(shown) > 8 * min(shown)     # a log scale only when it must
        for b in a.builds:
            xs, ys, bad_x = [], [], []
            for t in a.threads:
                r = runs[(p, b, t)]
                if r.good():
                    xs.append(t)
                    ys.append(r.wall)
                else:
                    bad_x.append(t)
            ax.plot(xs, ys, "o-", color=colors.get(b), label=b, markersize=4)
            if bad_x:   # timed out, crashed or wrong: drawn on the timeout line (sizes apart: all show)
                size = {"tmpy": 12, "tmpy-gil": 8}.get(b, 5)
                ax.plot(bad_x, [a.timeout] * len(bad_x), "x", color=colors.get(b), markersize=size,
                        markeredgewidth=2)
        if any(not runs[(p, b, t)].good() for b in a.builds for t in a.threads):
            ax.axhline(a.timeout, color="gray", linestyle="--", linewidth=0.8)
        kind = "shared" if p in SHARED else "independent" if p in INDEPENDENT else ""
        ax.set_title(f"{p} ({kind})", fontsize=9)
        ax.set_xscale("log", base=2)
        if wide:
            ax.set_yscale("log")
            ax.yaxis.set_major_locator(LogLocator(base=10, subs=(1, 2, 5)))
            ax.yaxis.set_major_formatter(FormatStrFormatter("%g"))
            ax.yaxis.set_minor_formatter(NullFormatter())
        else:
            ax.set_ylim(bottom=0, top=max(shown + [0.1]) * 1.1)
        ax.set_xticks(a.threads)
        ax.set_xticklabels([str(t) for t in a.threads])
        ax.set_xlabel("threads", fontsize=8)
        ax.set_ylabel("wall s", fontsize=8)
        ax.tick_params(labelsize=7)
        ax.grid(True, which="both", alpha=0.3)
    for ax in list(axes.flat)[len(names):]:
        ax.axis("off")
    axes.flat[0].legend(fontsize=7)
    fig.suptitle(f"bench/parallel: wall time, best of {a.repeat} (x on the dashed line: timed out "
                 f"after {a.timeout:g} s, crashed or wrong); same total work at every thread count",
                 fontsize=10)
    fig.tight_layout(rect=(0, 0, 1, 0.97))
    fig.savefig(path, dpi=90)
    plt.close(fig)


RUN_FIELDS = ("wall", "cpu", "status", "error")


def save_json(path, a, sizes, runs, header, stats):
    """The raw results, for --from-json (to re-render) and to compare runs."""
    data = {"header": header, "stats": stats, "sizes": sizes,
            "options": {k: getattr(a, k) for k in ("programs", "threads", "builds", "repeat", "timeout", "quick")},
            "runs": [dict({"program": p, "build": b, "threads": t, "outputs": sorted(r.outputs)},
                          **{f: getattr(r, f) for f in RUN_FIELDS}) for (p, b, t), r in runs.items()]}
    pathlib.Path(path).write_text(json.dumps(data, indent=1) + "\n")


def load_json(path, a):
    data = json.loads(pathlib.Path(path).read_text())
    for k, v in data["options"].items():
        setattr(a, k, v)
    runs = {}
    for d in data["runs"]:
        r = Run()
        for f in RUN_FIELDS:
            setattr(r, f, d[f])
        r.outputs = set(d["outputs"])
        runs[(d["program"], d["build"], d["threads"])] = r
    return data["sizes"], runs, data["header"], data["stats"]


def main():
    a = parse_args()
    if a.from_json:
        sizes, runs, header, stats = load_json(a.from_json, a)
    else:
        load_start = os.getloadavg()
        sizes = {p: max(1, program_size(p) // (10 if a.quick else 1)) for p in a.programs}
        runs = measure(a, sizes)
    ref = reference_outputs(a, runs)
    for (p, _, _), r in runs.items():
        r.wrong = any(o != ref[p] for o in r.outputs)
    if not a.from_json:
        stats = []
        if a.stats and "tmpy" in a.builds and "tmpy-gil" in a.builds:
            stats = stats_reports(a, sizes, runs)
        header = machine(load_start) + [
            f"rounds:   {a.repeat} (interleaved, best kept), timeout {a.timeout:g} s a run"
            + (", --quick (sizes / 10)" if a.quick else "")]
        if a.json:
            save_json(a.json, a, sizes, runs, header, stats)
    lines = header + [""] + table(a, sizes, runs, ref) + stats
    lines += ["", "Each program takes THREADS and SIZE, shares SIZE's work out among the threads (the same",
              "total at every thread count: strong scaling) and prints a result that must not depend on",
              "the thread count. Wall time is the whole process's, start-up included (what a user waits).",
              "bench/parallel/*.py say what each program shares and whether it takes a lock."]
    text = "\n".join(lines) + "\n"
    print(text, end="")
    if a.out:
        pathlib.Path(a.out).write_text(text)
    if a.plot:
        plot(a, runs, a.plot)
    return 1 if any(r.status == "FAIL" or r.wrong for r in runs.values()) else 0


if __name__ == "__main__":
    sys.exit(main())
