"""Object monitors (runtime/monitor.c): thin locks, inflation, fat locks, wait/notify (C tests, GIL build)."""
import shutil

import pytest

from conftest import BUILD, run

MOVE = {"TMPY_GC_DEBUG": "move"}
ARCH_PRCTL = {"TMPY_NO_WRGSBASE": "1"}
VALGRIND_ENV = {"TMPY_SEGMENT_SIZE": "1G", "TMPY_SEGMENTS": "1", **ARCH_PRCTL}

PARTS = ["uncontended", "nesting", "timed", "fairness", "wait", "contention", "recycle", "interrupt"]


@pytest.mark.parametrize("run", range(2))
def test_monitor(ctest, run):
    p = ctest("test_monitor")
    for part in ["uncontended", "nesting", "timed enter", "handoff", "fairness", "wait", "notify vs timeout",
                 "contention, 2 threads", "contention, 4 threads", "contention, 8 threads", "thread indexes",
                 "interrupt"]:
        assert f"ok {part}" in p.stdout, p.stdout


def test_monitor_move_everything(ctest):
    """Every allocation collects: locked young objects move with their lock word."""
    ctest("test_monitor", env=MOVE)


def test_monitor_arch_prctl(ctest):
    ctest("test_monitor", env=ARCH_PRCTL)


def test_monitor_parts_alone(ctest):
    """Each part also runs on its own (a fresh process: first thread index, first fat lock)."""
    for part in PARTS:
        p = ctest("test_monitor", part)
        assert p.stdout.count("\nok ") + p.stdout.startswith("ok ") >= 2, p.stdout


@pytest.mark.skipif(not shutil.which("valgrind"), reason="valgrind not installed")
def test_monitor_valgrind():
    env = {**VALGRIND_ENV, "TMPY_TEST_SCALE": "0.05"}
    exe = str(BUILD / "tests" / "test_monitor")
    p = run(["valgrind", "-q", "--error-exitcode=9", exe, "uncontended", "nesting", "timed", "fairness", "wait", "contention"],
            env=env)
    assert p.returncode == 0, p.stdout + p.stderr


STM_VARIANTS = {
    "one segment": {"TMPY_SEGMENTS": "1"},
    "four segments": {"TMPY_SEGMENTS": "4"},
    "abort injection": {"TMPY_SEGMENTS": "4", "TMPY_STM_INJECT_ABORTS": "0.03:5"},
    "barrier check": {"TMPY_SEGMENTS": "4", "TMPY_STM_CHECK": "1"},
    "move": {**MOVE, "TMPY_TEST_SCALE": "0.3"},
}


@pytest.mark.parametrize("variant", list(STM_VARIANTS))
def test_stm_monitor(ctest, variant):
    """STM build (tests/c/test_stm_monitor.c): a queued contender is handed the monitor, an idle fat lock
    deflates (uncontended enter/exit transactional again, the fat lock reused), and a stress of held,
    nested and waiting sections with exact counts, every monitor deflated at the end."""
    p = ctest("test_stm_monitor-stm", "all", "4", env=STM_VARIANTS[variant], timeout=300)
    assert "ok handoff" in p.stdout and "ok stress 4 threads" in p.stdout, p.stdout
