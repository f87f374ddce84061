"""Deterministic STM conflict tests (tests/c/test_stm_conflicts.c), run many times."""
import pytest

MOVE = {"TMPY_GC_DEBUG": "move"}


@pytest.mark.parametrize("run", range(5))
def test_conflicts(ctest, run):
    ctest("test_stm_conflicts-stm")


def test_conflicts_move_everything(ctest):
    ctest("test_stm_conflicts-stm", env=MOVE)


def test_conflicts_two_segments(ctest):
    """Exactly as many segments as the two scripted threads need (they run transactions
    at the same time, so one segment would deadlock the script, not the runtime)."""
    ctest("test_stm_conflicts-stm", env={"TMPY_SEGMENTS": "2"})


@pytest.mark.parametrize("run", range(3))
def test_conflicts_waiting_for_readers(ctest, run):
    p = ctest("test_stm_conflicts-stm", env={"TMPY_STM_WAIT_FOR_READERS": "1"})
    assert "wait for readers" in p.stdout
