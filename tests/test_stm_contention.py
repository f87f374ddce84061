"""The STM's contention manager and per-yield-point lengths (tests/c/test_stm_contention.c)."""
import pytest


@pytest.mark.parametrize("run", range(3))
def test_contention_eager(ctest, run):
    """Scripted aborts serialise threads (TMPY_STM_CM=eager): modes, the token's queue, no lost update."""
    ctest("test_stm_contention-stm")


def test_contention_two_segments(ctest):
    """A thread waiting for the token holds no segment: with two, a parallel thread still runs."""
    ctest("test_stm_contention-stm", env={"TMPY_SEGMENTS": "2"})


def test_contention_default_mode(ctest):
    """The default manager under real conflicts: no lost update, lengths adapt."""
    ctest("test_stm_contention-stm", env={"TMPY_STM_CM": "on"})


def test_contention_move_mode(ctest):
    ctest("test_stm_contention-stm", env={"TMPY_GC_DEBUG": "move"})


@pytest.mark.parametrize("run", range(3))
def test_segment_queue_is_fifo(ctest, run):
    """A thread waiting for the one segment gets it before the thread that
    gives it up and asks again at once (tests/c/test_stm_fairness.c)."""
    ctest("test_stm_fairness-stm", "segment", env={"TMPY_SEGMENTS": "1"})


def test_segment_queue_lets_a_spare_segment_go(ctest):
    """A thread asking for a segment while a spare one is free takes it at once, even behind a waiter
    woken but not yet running (held by a wait hook): with a strict ticket order it waited for that
    waiter to be scheduled, a convoy (tests/c/test_stm_fairness.c, spare)."""
    ctest("test_stm_fairness-stm", "spare", env={"TMPY_SEGMENTS": "2"})


@pytest.mark.parametrize("run", range(3))
def test_segment_time_slices(ctest, run):
    """A thread whose commits its next transaction follows keeps the one
    segment for a switch interval while another waits, then hands it on
    (tests/c/test_stm_fairness.c, slices)."""
    ctest("test_stm_fairness-stm", "slices", env={"TMPY_SEGMENTS": "1"}, timeout=60)


@pytest.mark.parametrize("run", range(3))
def test_inevitable_queue_is_fifo(ctest, run):
    """The same for becoming inevitable, with two segments."""
    ctest("test_stm_fairness-stm", "inevitable", env={"TMPY_SEGMENTS": "2"})
