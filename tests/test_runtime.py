"""The runtime heap: segments, GC, GIL threads, start-up parameters (C tests)."""
import os
import shutil
import subprocess

import pytest

from conftest import BUILD, run

MOVE = {"TMPY_GC_DEBUG": "move"}
ARCH_PRCTL = {"TMPY_NO_WRGSBASE": "1"}
# valgrind cannot reserve the default 80 GiB, nor run wrgsbase.
VALGRIND_ENV = {"TMPY_SEGMENT_SIZE": "1G", "TMPY_SEGMENTS": "1", **ARCH_PRCTL}


# Tests that run against both builds: the GIL library and the STM library
# (where they run as one long inevitable transaction).
BUILDS = pytest.mark.parametrize("build", ["", "-stm"], ids=["gil", "stm"])


@BUILDS
@pytest.mark.parametrize("env", [{}, ARCH_PRCTL], ids=["wrgsbase", "arch_prctl"])
def test_segments(ctest, build, env):
    ctest("test_segment" + build, env=env)


@BUILDS
@pytest.mark.parametrize("mode", ["graph", "large", "cycles", "release", "old", "cards", "sparse"])
def test_gc(ctest, build, mode):
    p = ctest("test_gc" + build, mode)
    print(p.stdout)


@BUILDS
@pytest.mark.parametrize("mode", ["graph", "large", "cycles", "old", "sparse"])
def test_gc_move_everything(ctest, build, mode):
    # graph: half the mutations (still 11 major collections, 150 minor ones)
    p = ctest("test_gc" + build, mode, env={**MOVE, "TMPY_TEST_SCALE": "0.5"} if mode == "graph" else MOVE)
    assert "move mode" in p.stdout or mode != "graph"


# Weak references and finalizers (tests/c/test_weak.c), plain and in move mode.
@BUILDS
@pytest.mark.parametrize("env", [{}, MOVE], ids=["plain", "move"])
@pytest.mark.parametrize("mode", ["basic", "final", "now", "stress"])
def test_weak(ctest, build, env, mode):
    p = ctest("test_weak" + build, mode, env=env)
    assert p.stdout.startswith("ok " + mode)


@pytest.mark.parametrize("env", [{}, MOVE, {"TMPY_STM_INJECT_ABORTS": "0.02:7"},
                                 {**MOVE, "TMPY_STM_INJECT_ABORTS": "0.02:11"}],
                         ids=["plain", "move", "aborts", "move-aborts"])
@pytest.mark.parametrize("mode", ["abort", "threads", "stress"])
def test_weak_stm(ctest, env, mode):
    p = ctest("test_weak-stm", mode, env=env)
    assert p.stdout.startswith("ok " + mode)


@BUILDS
def test_gc_exhaustion_gives_null_not_crash(ctest, build):
    ctest("test_gc" + build, "exhaust", env={"TMPY_SEGMENT_SIZE": "64M"})


@pytest.mark.parametrize("run", range(3))
def test_gil_threads(ctest, run):
    """Three runs (other interleavings); the second and third at 0.3 of the
    turns and fairness requests (about 120 queued handoffs each)."""
    ctest("test_gil_threads", env=None if run == 0 else {"TMPY_TEST_SCALE": "0.3"})


def test_gil_threads_move_everything(ctest):
    ctest("test_gil_threads", env=MOVE)


@pytest.mark.parametrize("env", [
    {"TMPY_SEGMENTS": "0"},
    {"TMPY_SEGMENTS": "-3"},
    {"TMPY_SEGMENTS": "many"},
    {"TMPY_SEGMENTS": "64"},
    {"TMPY_SEGMENTS": " 4"},                 # blanks on either side, a sign: rejected alike
    {"TMPY_SEGMENTS": "4 "},
    {"TMPY_SEGMENTS": "\t4"},
    {"TMPY_SEGMENTS": "+4"},
    {"TMPY_SEGMENTS": ""},
    {"TMPY_SEGMENT_SIZE": " 1G"},
    {"TMPY_SEGMENT_SIZE": "1G "},
    {"TMPY_NURSERY_SIZE": " 4M"},
    {"TMPY_GC_MAJOR_MIN": "64M "},
    {"TMPY_SEGMENT_SIZE": "100T"},
    {"TMPY_SEGMENTS": "4", "TMPY_SEGMENT_SIZE": "16T"},   # 5 x 16T exceeds the 64 TiB limit
    {"TMPY_SEGMENT_SIZE": "18446744073709551615"},
    {"TMPY_SEGMENT_SIZE": "99999999999999999999999"},
    {"TMPY_SEGMENT_SIZE": "1M"},
    {"TMPY_SEGMENT_SIZE": "1000001"},
    {"TMPY_SEGMENT_SIZE": "4Q"},
    {"TMPY_SEGMENT_SIZE": ""},
    {"TMPY_NURSERY_SIZE": "1"},
    {"TMPY_NURSERY_SIZE": "2G", "TMPY_SEGMENT_SIZE": "4G"},
    {"TMPY_GC_DEBUG": "everything"},
    {"TMPY_GC_DEBUG": "move:"},
    {"TMPY_GC_DEBUG": "move:70000"},
    {"TMPY_STM_WAIT_FOR_READERS": "yes"},
    {"TMPY_STM_INJECT_ABORTS": "2"},
    {"TMPY_STM_CHECK": "yes"},
    {"TMPY_STM_SOLO": "2"},
    {"TMPY_STM_INJECT_ABORTS": "0.1:x"},
    {"TMPY_STM_INJECT_ABORTS": "often"},
    {"TMPY_TEST_WAKE_DELAY": "2ms"},
    {"TMPY_TEST_WAKE_DELAY": "2000000"},
], ids=lambda e: ",".join(f"{k}={v}" for k, v in e.items()))
def test_bad_parameter_is_one_clear_line(env):
    p = run([str(BUILD / "tests" / "test_gc"), "init"], env=env)
    assert p.returncode == 1, (p.returncode, p.stderr)
    lines = p.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("tmpy: error: "), p.stderr
    assert p.stdout == ""


@pytest.mark.parametrize("env", [
    {"TMPY_SEGMENTS": "63", "TMPY_SEGMENT_SIZE": "1T"},    # exactly the 64 TiB limit
    {"TMPY_SEGMENTS": "1", "TMPY_SEGMENT_SIZE": "64M", "TMPY_NURSERY_SIZE": "256K"},
])
def test_extreme_but_valid_parameters(ctest, env):
    ctest("test_gc", "init", env=env)


@pytest.mark.skipif(not shutil.which("valgrind"), reason="valgrind not installed")
@pytest.mark.parametrize("args", [("test_segment",), ("test_gc", "cycles"), ("test_gc", "large"),
                                  ("test_gc-stm", "cycles"), ("test_stm_conflicts-stm",),
                                  ("test_stm_fairness-stm", "segment")],
                         ids=lambda a: "-".join(a))
def test_valgrind(args):
    env = dict(VALGRIND_ENV)
    if args[0] == "test_stm_conflicts-stm":
        env["TMPY_SEGMENTS"] = "2"   # its two scripted threads run transactions at once
    # --fair-sched: the scripted threads spin-wait for each other; valgrind's default
    # scheduler can leave the one that would end the wait unscheduled for minutes.
    p = run(["valgrind", "-q", "--fair-sched=yes", "--error-exitcode=9", str(BUILD / "tests" / args[0]), *args[1:]], env=env)
    assert p.returncode == 0, p.stdout + p.stderr


def test_stm_private_pages_stay_under_the_kernel_mapping_limit(ctest):
    """50k isolated private pages in two transactions: the first set is re-shared on demand."""
    ctest("test_stm_mappings-stm")


def test_stm_merge_privatises_past_the_page_budget(ctest):
    """A commit's merge (tm_commit_write_items) crosses the private-page budget with the world stopped
    by itself: it re-shares there (it used to stop the world again and wait for itself forever)."""
    ctest("test_stm_mappings-stm", "merge", timeout=120)


def test_stm_merge_writes_in_place(ctest):
    """A commit's merge writes the committed state in place (no page privatised in its segment), and a
    segment that has the page private gets the merged items."""
    ctest("test_stm_mappings-stm", "inplace", timeout=120)


def test_stm_item_stores_privatise_ahead(ctest):
    """Item stores walking up a carded object privatise the next pages in one call, and those pages
    stay coherent: another thread's commit reaches them, the writer's own stores stay its own."""
    ctest("test_stm_mappings-stm", "ahead", timeout=120)


def test_stm_major_collection_drops_views_of_shared_pages(ctest):
    """After a major collection a thread's segment maps none of the shared pages it read (RSS counted
    each page once per view), and keeps its private page and what it wrote there."""
    ctest("test_stm_mappings-stm", "forget")
    ctest("test_stm_mappings-stm", "forget", env={"TMPY_STM_CHECK": "1"})


HEAP_FULL = """
l = []
try:
    while True:
        l.append([0] * 1000)   # arrays too big for the nursery: taken from old space directly
except MemoryError:
    print("full", len(l) > 0)
for k in range(5):
    try:
        x = [str(i) for i in range(100000)]   # nursery survivors with old space full
    except MemoryError:
        pass
del l
x = [str(i) for i in range(100000)]
print("done", len(x))
"""


@pytest.mark.parametrize("exe", ["tmpy-gil", "tmpy"])
def test_interpreter_heap_exhaustion_is_memoryerror(exe):
    """A full heap gives MemoryError, never a fatal error in a minor
    collection with nowhere to copy its survivors."""
    p = subprocess.run([str(BUILD / exe), "-c", HEAP_FULL], capture_output=True, text=True, timeout=120,
                       env=dict(os.environ, TMPY_SEGMENT_SIZE="64M"))
    assert p.returncode == 0 and p.stdout.split() == ["full", "True", "done", "100000"], (p.stdout, p.stderr)


# Resident pages of each segment's view of the old-space memfd (segments of
# 1 GiB, segment 0, the sharing segment, at the lowest address), after
# start-up, a structure built, and a major collection. RSS counts a page once
# per view that maps it.
VIEWS_PROBE = r"""
import gc
keep = [[str(i), (i, i + 1)] for i in range(60000)]
gc.collect()
views, in_memfd = [], False
for line in open("/proc/self/smaps"):
    head = line.split()
    if head and not head[0].endswith(":"):
        in_memfd = "tmpy-old-space" in line
        if in_memfd:
            views.append([int(head[0].split("-")[0], 16), 0])
    elif in_memfd and head[0] == "Rss:":
        views[-1][1] += int(head[1])
first = min(start for start, _ in views)   # segment 0's view; privatised pages split a view in parts
per_segment = [0, 0, 0]
for start, kb in views:
    per_segment[(start - first) // (1 << 30)] += kb
print(*per_segment)
"""


@pytest.mark.parametrize("env", [{}, MOVE, {"TMPY_STM_INJECT_ABORTS": "0.02:5", "TMPY_TXLEN": "5"}],
                         ids=["plain", "move", "aborts"])
def test_stm_old_space_views_resident(env):
    """The STM build reads and writes the committed state through thread
    segments where it can: after a major collection segment 0 maps next to
    nothing (its collector, its privatisations and its zeroing of big objects
    mapped every page there a second time), and objects born old share pages
    (a page each made start-up's old space 11 MB, against 1.5 MB)."""
    p = subprocess.run([str(BUILD / "tmpy"), "-c", VIEWS_PROBE], capture_output=True, text=True, timeout=120,
                       env=dict(os.environ, TMPY_SEGMENTS="2", TMPY_SEGMENT_SIZE="1G", **env))
    assert p.returncode == 0, p.stderr
    views = [int(x) for x in p.stdout.split()]
    assert len(views) == 3, views
    assert views[0] <= 512, f"segment 0 maps {views[0]} KB of old space after a major collection: {views}"
    assert max(views[1:]) <= 16 * 1024, f"old space views: {views} KB"
