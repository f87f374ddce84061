"""fork() with other threads in transactions (runtime/fork.c; tests/c/test_stm_fork.c): writer
threads keep writing a few shared cells, some in long transactions, while the main thread forks
from an inevitable transaction; each child's own threads write the same cells (they would wait
forever for a gone writer's locks), its counts are exact, and it collects; the parent's writers
go on with exact counts. Before the rollback read the child's copy of the committed contents, the
children counted the parent's later commits (found by this test)."""
import pytest

VARIANTS = {
    "four segments": {"TMPY_SEGMENTS": "4"},
    "two segments": {"TMPY_SEGMENTS": "2"},
    "abort injection": {"TMPY_SEGMENTS": "4", "TMPY_STM_INJECT_ABORTS": "0.03:5"},
    "eager contention manager": {"TMPY_SEGMENTS": "4", "TMPY_STM_CM": "eager",
                                 "TMPY_STM_INJECT_ABORTS": "0.05:9"},
    "barrier check": {"TMPY_SEGMENTS": "4", "TMPY_STM_CHECK": "1"},
    "move": {"TMPY_SEGMENTS": "2", "TMPY_GC_DEBUG": "move", "TMPY_TEST_SCALE": "0.5"},
}


@pytest.mark.parametrize("run", range(2))
@pytest.mark.parametrize("variant", list(VARIANTS))
def test_stm_fork(ctest, variant, run):
    p = ctest("test_stm_fork-stm", env=VARIANTS[variant], timeout=300)
    assert "ok fork" in p.stdout, p.stdout + p.stderr
