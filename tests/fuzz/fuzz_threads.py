#!/usr/bin/env python3
"""A threaded differential fuzzer: generated Python programs of 2-8 threads
whose output is deterministic by construction, run under build/tmpy (STM,
abort injection, the barrier checker TMPY_STM_CHECK=1, 2 and 4 segments) and
compared with python3 (or tmpy-gil).

Usage:
  tests/fuzz/fuzz_threads.py gen SEED            print the program of a seed
  tests/fuzz/fuzz_threads.py run [FIRST_SEED] [N] [--seconds S] [--ref EXE] [--out DIR]
                                                 run N seeds (or for S seconds)
  tests/fuzz/fuzz_threads.py repro DIR           rerun a saved failure
  tests/fuzz/fuzz_threads.py triage OUTDIR       count saved failures by the filed bug
                                                 that explains them (KNOWN_*), list the rest

A program's threads work on shared lists, dicts, sets, counters under locks,
instance and class attributes, generators (a shared one consumed under a
lock), exceptions (raised inside locks and `with tm.atomic:` blocks),
finalizers (`__del__` appends to a list; counted after gc.collect()),
`tm.atomic` (under python3 a stand-in: one re-entrant lock), blocking calls
(time.sleep(0), queue.get in a ring of queues, a Barrier, a Condition) and
I/O (per-thread StringIO and os.devnull files, and print() from the threads
in a fixed turn order passed on by a Condition). Every effect is one whose
final value does not depend on the interleaving (commutative updates under
one lock, appends whose sorted contents are printed, per-thread results
printed by the main thread after join). Some steps choose between two
equivalent forms by the clock, so a transaction's retry after an abort may
take the other path (C state an abort leaves behind then shows).

Each run is bounded by a timeout (a hang is a failure). After a difference the
reference runs once more: an output its second run gives too is no difference
(under load the reference's own deadlines can expire). A failure is saved as
a directory (default build/fuzz_threads/SEED-CONFIG/) holding prog.py, the
environment and command line (cmd.sh), the expected and the actual output.
"""
import ast
import os
import random
import re
import shlex
import shutil
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent.parent
BUILD = Path(os.environ.get("TMPY_BUILD", ROOT / "build"))
TIMEOUT = float(os.environ.get("TMPY_FUZZ_THREADS_TIMEOUT", "60"))
# Phases left out (comma-separated; "spin" while issue 21 #5 is open, for long
# runs that look for other bugs). The rest of each program stays the same.
SKIP = set(filter(None, os.environ.get("TMPY_FUZZ_THREADS_SKIP", "").split(",")))

PRELUDE = '''\
import collections
import gc
import io
import weakref
import os
import queue
import sys
import threading
import time

try:
    import tm
except ImportError:
    class tm:
        """python3's stand-in for tmpy's tm module: blocks exclude each other."""
        atomic = threading.RLock()

NT = {nt}
ROUNDS = {rounds}
lock = threading.Lock()
rlock = threading.RLock()
dlock = threading.Lock()
glock = threading.Lock()
counter = [0]
L = []
D = {{}}
D2 = {{}}
S = set()
SB = set(range(-3000, 0))   # a big table: adds and discards commit blind (setlog.c)
dels = []
GV = []
results = [None] * NT
queues = [queue.Queue() for _ in range(NT)]
barrier = threading.Barrier(NT)
turn = [0]
cond = threading.Condition()


class Shared:
    count = 0

    def meth(self):
        return 0


class Sub(Shared):
    pass


def make_meth(v):
    def meth(self):
        return v
    return meth


BIG = [0] * 3000
DQ = collections.deque()
tls = threading.local()
wcalls = []
wrefs = []


class Target:
    pass


class Obj:
    pass


obj = Obj()
obj.count = 0
bank = Obj()
bank.a = 0
bank.b = 0


class Fin:
    def __init__(self, t):
        self.t = t

    def __del__(self):
        dels.append(self.t)


class FuzzError(Exception):
    pass


def numbers(n):
    for i in range(n):
        yield i * 3 + 1


def nested(n):
    yield from numbers(n)
    try:
        yield -1
    finally:
        pass


G = numbers({gen_len})
flags = [0] * NT
spin_end = []   # one deadline for all spinners, set after the barrier before the spin


def spin_until_all(_):
    """Spins (no blocking call) until every thread set its flag: python3 and
    the GIL switch threads; under the STM the spinning transaction must
    commit to see the other threads' writes."""
    while not all(flags):
        if time.monotonic() > spin_end[0]:
            return False
    return True
'''

EPILOGUE = '''

threads = [threading.Thread(target=w, args=(t,)) for t, w in enumerate(WORKERS)]
for th in threads:
    th.start()
for th in threads:
    th.join({join_timeout})
    if th.is_alive():
        print("HUNG", th.name)
        sys.stdout.flush()
        os._exit(3)
print("counter", counter[0])
print("obj.count", obj.count, "Shared.count", Shared.count)
print("bank", bank.a, bank.b)
print("L", len(L), sorted(L)[:20], sum(x[2] for x in L))
print("D", len(D), sum(D.values()), sorted(D2.items()))
print("S", len(S), sorted(S)[:20])
print("SB", len(SB), sum(x if type(x) is int else len(x) for x in SB))
print("attrs", sorted((k, v) for k, v in vars(obj).items() if k.startswith("a")))
print("cls", sorted((k, v) for k, v in vars(Shared).items() if k.startswith("c_")))
print("G", len(GV), sum(GV), "rest", sum(G))
print("BIG", sum(BIG), BIG.index(max(BIG)) if max(BIG) else -1, "DQ", len(DQ) >= 0)
for t, r in enumerate(results):
    print("thread", t, r)
for _ in range(3):
    gc.collect()
print("dels", len(dels), sorted(set(dels)), "weakref callbacks", len(wcalls),
      sum(w() is None for w in wrefs))
'''


class Gen:
    """Writes one program from a seed."""

    def __init__(self, seed):
        self.rng = random.Random(seed)
        self.uid = 0

    def next_uid(self):
        self.uid += 1
        return self.uid

    # Each step: a list of lines (indented later), run once per round by one
    # thread. `t` is the thread index, `r` the round, `out` the thread's list.
    def step(self):
        rng = self.rng
        k = rng.randrange(1, 9)
        u = self.next_uid()
        kind = rng.choice(STEPS)
        lines = kind(self, k, u)
        if rng.random() < 0.25:
            # the same effect by another path, chosen by the clock
            other = kind(self, k, u)
            lines = (["if time.perf_counter_ns() & 1:"] + ["    " + s for s in lines] +
                     ["else:"] + ["    " + s for s in other + ["time.sleep(0)"]])
        return lines

    def worker(self, t, phases):
        rng = self.rng
        body = []
        for _ in range(rng.randrange(2, 9)):
            body += self.step()
        lines = [f"def worker_{t}(t):", "    out = []", "    buf = io.StringIO()",
                 "    got = []", "    for r in range(ROUNDS):"]
        lines += ["        " + s for s in body]
        if "barrier" in phases:
            lines += ["    barrier.wait(30)", "    out.append(('after barrier', len(L) >= 0))"]
        if "queue" in phases:
            lines += ["    for i in range(QN):",
                      "        queues[(t + 1) % NT].put((t, i))",
                      "        out.append(queues[t].get(timeout=30))"]
        if "spin" in phases:
            # spinning inside Python code called from C (map), after output
            lines += ["    barrier.wait(30)",
                      "    with glock:",
                      "        if not spin_end:",
                      "            spin_end.append(time.monotonic() + 5)",
                      "    print(end='', flush=True)",
                      "    flags[t] = 1",
                      "    out.append(('spin', list(map(spin_until_all, [0]))))"]
        if "relay" in phases:
            lines += ["    for i in range(RELAY):",
                      "        with cond:",
                      "            while turn[0] % NT != t:",
                      "                if not cond.wait(30):",
                      "                    print('relay timeout', t)",
                      "                    return",
                      "            print('relay', t, i, sum(got), len(out))",
                      "            sys.stdout.flush()",
                      "            turn[0] += 1",
                      "            cond.notify_all()"]
        lines += ["    out.append(('got', sum(got), len(got)))",
                  "    out.append(('buf', len(buf.getvalue()), buf.getvalue()[-30:]))",
                  "    results[t] = out"]
        return lines

    def program(self):
        rng = self.rng
        nt = rng.randrange(2, 9)
        rounds = rng.choice([5, 20, 50, 120])
        phases = [p for p in ("barrier", "queue", "relay") if rng.random() < 0.35]
        if rng.random() < 0.2 and "spin" not in SKIP:
            phases.append("spin")
        src = [PRELUDE.format(nt=nt, rounds=rounds, gen_len=rng.randrange(0, 400)),
               f"QN = {rng.randrange(1, 30)}", f"RELAY = {rng.randrange(1, 4)}", ""]
        for t in range(nt):
            src += self.worker(t, phases) + ["", ""]
        src.append("WORKERS = [" + ", ".join(f"worker_{t}" for t in range(nt)) + "]")
        src.append(EPILOGUE.format(join_timeout=50))
        return "\n".join(src)


def s_lock_counter(g, k, u):
    return ["with lock:", f"    counter[0] += {k}"]


def s_lock_counter_sleep(g, k, u):
    return ["with lock:", "    c = counter[0]", "    time.sleep(0)", f"    counter[0] = c + {k}"]


def s_rlock_nested(g, k, u):
    return ["with rlock:", "    with rlock:", f"        counter[0] += 0", f"        obj.__dict__.setdefault('a_r', 0)"]


def s_atomic_counter(g, k, u):
    return ["with tm.atomic:", f"    obj.count += {k}"]


def s_atomic_bank(g, k, u):
    return ["with tm.atomic:", f"    bank.a += {k}", f"    bank.b -= {k}",
            "    out.append(bank.a + bank.b)"]


def s_atomic_sleep(g, k, u):
    return ["with tm.atomic:", "    time.sleep(0)", f"    obj.count += {k}"]


def s_atomic_list(g, k, u):
    # remove() takes an equal element, whoever appended it: the contents stay the same
    return ["with tm.atomic:", f"    L.append((t, r, {k}))", f"    L.remove((t, r, {k}))",
            f"    L.append((t, r, {k}))"]


def s_atomic_raise(g, k, u):
    return ["try:", "    with tm.atomic:", f"        obj.count += {k}",
            "        if r % 3 == 0:", "            raise FuzzError(r)",
            "except FuzzError as e:", "    out.append(('caught', e.args[0]))"]


def s_lock_raise(g, k, u):
    return ["try:", "    with lock:", f"        counter[0] += {k}",
            f"        raise KeyError({u})", "except KeyError as e:", "    got.append(e.args[0])"]


def s_list_append(g, k, u):
    return [f"L.append((t, r, {k}))"]


def s_dict_own(g, k, u):
    return [f"D[(t, r, {u})] = {k}"]


def s_dict_shared(g, k, u):
    return ["with dlock:", f"    D2[{k}] = D2.get({k}, 0) + 1"]


def s_dict_pop(g, k, u):
    return [f"D[(t, r, 'tmp', {u})] = 1", f"out.append(D.pop((t, r, 'tmp', {u})))"]


def s_set(g, k, u):
    return [f"S.add((t, r % {k + 2}))", f"S.discard((t, -1))"]


def s_big_set(g, k, u):
    # Own elements only (ints and strs), read back at once: the transaction's pending entries.
    x = f"(t * 1000000 + {u} * 1000 + r)"
    return [f"SB.add({x})", f"SB.add('b%d-%d' % (t, {u}))", f"out.append({x} in SB)",
            f"SB.discard({x} - 1)", f"out.append(('b%d-%d' % (t, {u})) in SB)",
            f"if r % 3 == 0:", f"    SB.remove({x})", f"    out.append({x} in SB)"]


def s_attr(g, k, u):
    return [f"setattr(obj, 'a%d' % t, r * {k})", "out.append(getattr(obj, 'a%d' % t))"]


def s_class_attr(g, k, u):
    return [f"setattr(Shared, 'c_%d' % t, r + {k})"]


def s_class_counter(g, k, u):
    return ["with lock:", "    Shared.count += 1"]


def s_gen_local(g, k, u):
    return [f"out.append(sum(x * x for x in range(r % 7 + {k})))",
            f"out.append(list(nested(r % 4)))"]


def s_gen_shared(g, k, u):
    # which thread gets which value varies: only the totals are printed
    return ["with glock:", "    v = next(G, None)", "if v is not None:", "    GV.append(v)"]


def s_exception(g, k, u):
    return ["try:", f"    {{}}[('missing', {u})]", "except KeyError as e:",
            f"    out.append(len(e.args) + {k})", "finally:", f"    counter[0] += 0"]


def s_exception_nested(g, k, u):
    return ["try:", "    try:", f"        raise ValueError({k})", "    except ValueError as e:",
            "        raise FuzzError('wrapped') from e", "except FuzzError as e:",
            "    out.append((str(e), type(e.__cause__).__name__))"]


def s_finalizer(g, k, u):
    return ["f = Fin(t)", "if r % 2:", "    f.self = f", "del f"]


def s_finalizers_many(g, k, u):
    return [f"for _ in range({k * 20}):", "    Fin(t)"]


def s_method_swap(g, k, u):
    # a class attribute (a method) replaced under the lock, called at once
    # through an instance of a subclass: the type caches must see the write
    return ["with lock:", f"    Shared.meth = make_meth(r * {k} + t)",
            f"    out.append(Sub().meth() == r * {k} + t)"]


def s_class_attr_del(g, k, u):
    return ["with lock:", f"    Shared.c_tmp = {k}", "    v = Sub().c_tmp", "    del Shared.c_tmp",
            "    out.append((v, hasattr(Sub(), 'c_tmp')))"]


def s_big_list(g, k, u):
    # each thread writes its own cells of one big list (card marking)
    return [f"BIG[(t * 373 + r * {k}) % 3000] += 1"]


def s_deque(g, k, u):
    return [f"DQ.append((t, r, {k}))", "if len(DQ) > 50:", "    try:", "        DQ.popleft()",
            "    except IndexError:", "        pass"]


def s_thread_local(g, k, u):
    return [f"tls.v = getattr(tls, 'v', 0) + {k}", "out.append(tls.v)"]


def s_weakref(g, k, u):
    # the weak reference is kept alive (a dead one calls nothing), the target dies
    return ["o = Target()", "w = weakref.ref(o, lambda _: wcalls.append(1))",
            "out.append(w() is o)", "wrefs.append(w)", "del o, w"]


def s_atomic_nested(g, k, u):
    return ["with tm.atomic:", "    with tm.atomic:", f"        obj.count += {k}",
            "    bank.a += 1", "    bank.b -= 1"]


IMPORTABLE = ["json", "string", "textwrap", "fractions", "colorsys", "heapq", "bisect", "shlex",
              "difflib", "calendar"]


def s_import(g, k, u):
    # the first import of a module, from several threads at once (the import lock)
    m = IMPORTABLE[(u * 7 + k) % len(IMPORTABLE)]   # not the rng: both forms of a step must agree
    return [f"import {m} as mod_{u}", f"out.append(mod_{u}.__name__)"]


def s_sleep(g, k, u):
    return ["time.sleep(0)"]


def s_stringio(g, k, u):
    return [f"print(t, r, {k}, file=buf)"]


def s_devnull(g, k, u):
    return ["with open(os.devnull, 'w') as fh:", f"    fh.write('x' * {k * 10})", "    fh.flush()"]


def s_callback(g, k, u):
    return [f"out.append(list(map(lambda x: x + {k}, range(r % 5))))",
            f"out.append(sorted(range(r % 6), key=lambda x: -x))"]


def s_gc(g, k, u):
    return [f"if r % {k * 5} == 0:", "    gc.collect()"]


def s_str_int(g, k, u):
    return [f"out.append(hash(str(r * {k}) + 'x') == hash(str(r * {k}) + 'x'))",
            f"out.append((1 << (r + {k})) % 1000003)"]


STEPS = [s_lock_counter, s_lock_counter_sleep, s_rlock_nested, s_atomic_counter, s_atomic_bank,
         s_atomic_sleep, s_atomic_list, s_atomic_raise, s_lock_raise, s_list_append, s_dict_own,
         s_dict_shared, s_dict_pop, s_set, s_big_set, s_attr, s_class_attr, s_class_counter, s_gen_local,
         s_gen_shared, s_exception, s_exception_nested, s_finalizer, s_finalizers_many, s_sleep, s_stringio,
         s_devnull, s_callback, s_gc, s_str_int, s_method_swap, s_class_attr_del, s_big_list,
         s_deque, s_thread_local, s_weakref, s_atomic_nested, s_import]


def generate(seed):
    return f"# fuzz_threads seed {seed}\n" + Gen(seed).program()


def configs(seed):
    """The build/tmpy runs of a seed: (name, env). Two and four segments,
    injected aborts at a rate and transaction length drawn from the seed;
    some runs also in move mode (TMPY_GC_DEBUG=move: young objects move at
    every minor collection) or without solo transactions (TMPY_STM_SOLO=0)."""
    rng = random.Random(seed * 7919 + 1)
    out = []
    for segs in (2, 4):
        env = {"TMPY_SEGMENTS": str(segs), "TMPY_STM_CHECK": "1",
               "TMPY_TXLEN": str(rng.choice([1, 2, 5, 20, 100])),
               "TMPY_STM_INJECT_ABORTS": f"{rng.choice([0.01, 0.05, 0.2])}:{rng.randrange(1, 1000)}"}
        if rng.random() < 0.25:
            env["TMPY_GC_DEBUG"] = "move"
        if rng.random() < 0.25:
            env["TMPY_STM_SOLO"] = "0"
        out.append((f"seg{segs}", env))
    return out


def run_program(exe, prog, env, cwd):
    full = dict(os.environ)
    for k in list(full):
        if k.startswith("TMPY_") and k not in ("TMPY_STDLIB",):
            del full[k]
    full.pop("PYTHONPATH", None)
    full["PYTHONHASHSEED"] = "0"
    full.update(env)
    t0 = time.monotonic()
    try:
        p = subprocess.run([str(exe), str(prog)], capture_output=True, text=True, timeout=TIMEOUT,
                           env=full, cwd=cwd, errors="replace")
    except subprocess.TimeoutExpired as e:
        out = e.stdout.decode(errors="replace") if isinstance(e.stdout, bytes) else (e.stdout or "")
        return ("hang", out, f"timeout after {TIMEOUT}s", time.monotonic() - t0)
    return (p.returncode, p.stdout, p.stderr, time.monotonic() - t0)


def save_failure(outdir, seed, name, exe, env, src, want, got):
    d = Path(outdir) / f"{seed}-{name}"
    d.mkdir(parents=True, exist_ok=True)
    (d / "prog.py").write_text(src)
    envs = " ".join(f"{k}={shlex.quote(v)}" for k, v in sorted(env.items()))
    (d / "cmd.sh").write_text(f"#!/bin/sh\n# seed {seed}, config {name}\n"
                              f"cd \"$(dirname \"$0\")\" && PYTHONHASHSEED=0 {envs} "
                              f"timeout {int(TIMEOUT)} {exe} prog.py\n")
    (d / "expected.txt").write_text(f"exit {want[0]}\n{want[1]}")
    (d / "got.txt").write_text(f"exit {got[0]}\n{got[1]}\n--- stderr ---\n{got[2][-5000:]}")
    return d


def first_difference(want, got):
    """The first stdout line that differs, shortened: a failure's signature."""
    w, g = want.splitlines(), got.splitlines()
    for i in range(max(len(w), len(g))):
        a = w[i] if i < len(w) else "<none>"
        b = g[i] if i < len(g) else "<none>"
        if a != b:
            # where the lines part, with some context
            j = next((k for k in range(min(len(a), len(b))) if a[k] != b[k]), min(len(a), len(b)))
            return f"[line {i + 1}: want ...{a[max(0, j - 40):j + 40]!r} got ...{b[max(0, j - 40):j + 40]!r}]"
    return ""


# Programs whose reference output changed when run again after a difference.
REFERENCE_UNSTABLE = 0


def check_seed(seed, ref, outdir, tmpdir, stm=None):
    """Runs one seed; returns a list of failure descriptions (saved under outdir)."""
    global REFERENCE_UNSTABLE
    stm = stm or BUILD / "tmpy"
    src = generate(seed)
    prog = Path(tmpdir) / f"fuzz_threads_{seed}.py"
    prog.write_text(src)
    want = run_program(ref, prog, {}, tmpdir)
    if want[0] != 0:
        d = save_failure(outdir, seed, "reference", ref, {}, src, (0, ""), want)
        return [f"seed {seed}: the reference {ref} failed (exit {want[0]}): a generator bug? {d}"]
    failures = []
    rerun = None
    for name, env in configs(seed):
        got = run_program(stm, prog, env, tmpdir)
        if got[0] != want[0] or got[1] != want[1]:
            # The reference once more: on a loaded machine its own timeouts (a spin's deadline, a
            # 30 s queue get) can expire. An output the second run gives too is not a difference.
            if rerun is None:
                rerun = run_program(ref, prog, {}, tmpdir)
                if rerun[:2] != want[:2]:
                    REFERENCE_UNSTABLE += 1
            if rerun[:2] != want[:2] and got[:2] == rerun[:2]:
                continue
            d = save_failure(outdir, seed, name, stm, env, src, want, got)
            what = "hang" if got[0] == "hang" else f"exit {got[0]}" if got[0] != want[0] else "stdout differs"
            last = got[2].strip().splitlines()[-1:] if got[2].strip() else []
            failures.append(f"seed {seed} {name}: {what} {' '.join(last)[:200]} "
                            f"{first_difference(want[1], got[1])} -> {d}")
    prog.unlink()
    return failures


# Filed bugs whose marks the triage recognises. Issue 21's #1 (finalizers
# lost), #2 (a blocking call's flag surviving its aborted commit) and #5 (an
# inevitable transaction spinning in code called from C) are fixed, so their
# marks are failures again: the lists are empty until a new bug is filed.
# A crash whose message has this signature -> the filed bug.
KNOWN_CRASHES = {}
# (what the bug prints, what python3 prints, the filed bug): an output that
# equals python3's once these are replaced differs by known bugs only.
KNOWN_OUTPUTS = []
# The line of finalizer and weak-reference callback counts; a bug that loses
# some shows as the same line with smaller counts (short_counts).
DELS_LINE = re.compile(r"^dels (\d+) (\[[^]]*\])(?: weakref callbacks (\d+) (\d+))?$")
# (a line python3 prints, the filed bug): an output equal to python3's but for
# fewer finalizer or weak-reference callback runs on that line.
KNOWN_SHORT_COUNTS = []


def short_counts(rx, want_line, got_line):
    """Whether got_line is want_line with some counts smaller (a subset of finalizer ids)."""
    w, g = rx.match(want_line), rx.match(got_line)
    if not (w and g) or g.group(4) != w.group(4):
        return False
    subset = set(ast.literal_eval(g.group(2))) <= set(ast.literal_eval(w.group(2)))
    return subset and int(g.group(1)) <= int(w.group(1)) and int(g.group(3) or 0) <= int(w.group(3) or 0)


def known_bug(failure):
    """The filed bugs that explain a failure line of check_seed, or None."""
    return known_in(Path(failure.rsplit(" -> ", 1)[1]), failure)


def known_in(saved, failure=""):
    """The filed bugs that explain the failure saved in directory `saved`, or None."""
    got_all = (saved / "got.txt").read_text()
    for sig, why in KNOWN_CRASHES.items():
        if sig in failure or sig in got_all:
            return why
    want = (saved / "expected.txt").read_text()
    got = (saved / "got.txt").read_text().split("\n--- stderr ---\n")[0]
    whys = []
    for bad, good, why in KNOWN_OUTPUTS:
        if bad in got:
            got = got.replace(bad, good)
            whys.append(why)
    wl, gl = want.rstrip("\n").split("\n"), got.rstrip("\n").split("\n")
    if len(wl) == len(gl):
        for i, (a, b) in enumerate(zip(wl, gl)):
            for rx, why in KNOWN_SHORT_COUNTS:
                if a != b and short_counts(rx, a, b):
                    gl[i] = a
                    whys.append(why)
        got = "\n".join(gl)
    return "; ".join(whys) if whys and got.rstrip("\n") == want.rstrip("\n") else None


def triage(outdir):
    """Counts the saved failures under outdir by the filed bug that explains them."""
    counts, unknown = {}, []
    for d in sorted(p for p in Path(outdir).iterdir() if (p / "got.txt").is_file()):
        why = known_in(d)
        if why:
            counts[why] = counts.get(why, 0) + 1
        else:
            unknown.append(d)
    for why, n in sorted(counts.items()):
        print(f"{n:6d}  {why}")
    print(f"{len(unknown):6d}  not explained by a filed bug:")
    for d in unknown:
        print(f"        {d}")
    return 1 if unknown else 0


def default_ref():
    ref = os.environ.get("TMPY_REF_PYTHON") or shutil.which("python3") or str(BUILD / "tmpy-gil")
    return ref


def main(argv):
    if not argv or argv[0] not in ("gen", "run", "repro", "triage"):
        print(__doc__)
        return 2
    if argv[0] == "gen":
        print(generate(int(argv[1])))
        return 0
    if argv[0] == "triage":
        return triage(argv[1])
    if argv[0] == "repro":
        return subprocess.call(["sh", str(Path(argv[1]) / "cmd.sh")])
    args = argv[1:]
    opts = {}
    for key in ("--seconds", "--ref", "--out"):
        if key in args:
            i = args.index(key)
            opts[key] = args[i + 1]
            del args[i:i + 2]
    first = int(args[0]) if args else 1
    n = int(args[1]) if len(args) > 1 else 10
    ref = opts.get("--ref", default_ref())
    outdir = Path(opts.get("--out", BUILD / "fuzz_threads")).resolve()
    deadline = time.monotonic() + float(opts["--seconds"]) if "--seconds" in opts else None
    tmpdir = outdir / "tmp"
    tmpdir.mkdir(parents=True, exist_ok=True)
    t0 = time.monotonic()
    failed = done = 0
    for seed in range(first, first + n):
        if deadline is not None and time.monotonic() > deadline:
            break
        fails = check_seed(seed, ref, outdir, tmpdir)
        done += 1
        for f in fails:
            print(f, flush=True)
        failed += bool(fails)
        if done % 50 == 0:
            print(f"progress: {done} programs, {failed} failing, {time.monotonic() - t0:.0f} s "
                  f"(last seed {seed})", flush=True)
    print(f"done: {done} programs (seeds {first}..{first + done - 1}), {failed} failing, "
          f"{time.monotonic() - t0:.0f} s; the reference's output changed on a rerun for {REFERENCE_UNSTABLE}",
          flush=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
