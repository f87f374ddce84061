"""The STM build under stress: threads running transactions in parallel (C tests).

tests/c/test_stm_stress.c checks every run against a model: exact counters
(no lost updates), a bank invariant checked inside every reading transaction
(opacity), inevitable transactions that never abort and never overlap,
transactions that overflow the nursery (and abort), and major collections
run inside transactions while others write. A hang fails the run through the
program's watchdog (no commit for TMPY_TEST_WATCHDOG seconds)."""
import pytest

from conftest import BUILD, run

STRESS = "test_stm_stress-stm"
MOVE = {"TMPY_GC_DEBUG": "move"}
# TMPY_GC_DEBUG=move collects at every allocation: a smaller run, a smaller nursery.
MOVE_SMALL = {**MOVE, "TMPY_TEST_SCALE": "0.3", "TMPY_NURSERY_SIZE": "1M"}
TIMEOUT = 300


def stress(ctest, *args, env=None):
    p = ctest(STRESS, *args, env=env, timeout=TIMEOUT)
    print(p.stdout)
    return p


@pytest.mark.parametrize("threads", ["2", "4", "8"])   # 8 threads > 4 segments
def test_lost_update(ctest, threads):
    p = stress(ctest, "lost_update", threads)
    assert f"ok lost_update {threads} threads" in p.stdout


@pytest.mark.parametrize("threads", ["2", "4", "8"])
def test_bank_opacity(ctest, threads):
    # 8 threads on 2 cores: half the transfers (as many conflicts per transfer)
    p = stress(ctest, "bank", threads, env={"TMPY_TEST_SCALE": "0.5"} if threads == "8" else None)
    assert f"ok bank {threads} threads" in p.stdout


def test_inevitable(ctest):
    p = stress(ctest, "inevitable")
    for part in ("(a)", "(b)", "(c)"):
        assert f"ok inevitable {part}" in p.stdout


def test_overflow_and_abort(ctest):
    p = stress(ctest, "overflow")
    assert "ok overflow:" in p.stdout and "ok overflow abort:" in p.stdout


def test_major_keeps_committed_referents_of_modified_objects(ctest):
    """Deterministic: a major collection while another transaction holds
    modified objects, which then aborts."""
    p = stress(ctest, "major", "pre")
    assert "ok major pre-phase" in p.stdout


def test_major_while_a_transaction_is_parked_in_its_write_barrier(ctest):
    """Deterministic: the object it writes must keep its write-barrier flag."""
    p = stress(ctest, "major", "barrier")
    assert "ok major barrier phase" in p.stdout


def test_major_during_transactions(ctest):
    p = stress(ctest, "major", "stress")
    assert "ok major:" in p.stdout


@pytest.mark.parametrize("threads", ["1", "2", "4"])
@pytest.mark.parametrize("env", [{}, {"TMPY_STM_INJECT_ABORTS": "0.02:5"}], ids=["plain", "aborts"])
def test_card_marked_array(ctest, threads, env):
    """Stores into items of a big array mark cards: minor collections trace
    and commits publish only those, aborts clear them."""
    p = stress(ctest, "cards", threads, env=env)
    assert f"ok cards {threads} threads" in p.stdout


@pytest.mark.parametrize("threads", ["1", "2", "4"])
@pytest.mark.parametrize("env", [{}, {"TMPY_STM_INJECT_ABORTS": "0.02:5"}, {"TMPY_STM_CHECK": "1"}],
                         ids=["plain", "aborts", "check"])
def test_card_marked_raw_object(ctest, threads, env):
    """Stores into words of a big object without references mark cards:
    commits publish only those (the barrier checker compares the others
    with the committed copy), aborts clear them."""
    p = stress(ctest, "rawcards", threads, env=env)
    assert f"ok rawcards {threads} threads" in p.stdout


@pytest.mark.parametrize("threads", ["2", "4"])
@pytest.mark.parametrize("env", [{}, {"TMPY_STM_INJECT_ABORTS": "0.02:5"}, {"TMPY_STM_CHECK": "1"}],
                         ids=["plain", "aborts", "check"])
def test_card_conflict_units(ctest, threads, env):
    """A big object is locked and read-checked card by card: blind writes of
    words interleaved between threads keep every last write, threads writing
    cards of their own never conflict (a count of aborts), shared counters
    read with tm_read_at stay exact."""
    p = stress(ctest, "cardunits", threads, env={"TMPY_SEGMENTS": "4", **env})
    assert f"ok cardunits {threads} threads" in p.stdout


def test_card_conflict_units_need_card_locks():
    """Without the card locks (a test-only knob) two transactions write one
    card and the later commit copies its card over the other's words: the
    blind-write phase must see lost writes (it may rarely get lucky: three
    tries)."""
    exe = BUILD / "tests" / STRESS
    for _ in range(3):
        p = run([str(exe), "cardunits", "4"], timeout=TIMEOUT,
                env={"TMPY_SEGMENTS": "4", "TMPY_STM_TEST_NO_CARD_LOCKS": "1", "TMPY_TEST_WATCHDOG": "60"})
        print(p.stdout, p.stderr)
        if p.returncode != 0:
            break
    assert p.returncode != 0 and "lost their last committed write" in p.stdout + p.stderr


@pytest.mark.parametrize("env", [{}, MOVE_SMALL], ids=["plain", "move"])
def test_solo_transactions(ctest, env):
    """A thread alone writes in place; its commit reaches another segment's
    private pages; a thread attaching meanwhile waits for that commit."""
    p = stress(ctest, "solo", env=env)
    assert "ok solo: in place" in p.stdout


def test_solo_commit_reaches_private_copies(ctest):
    """A solo transaction re-shares every page first, so the commit's copy into another segment's private
    pages runs only when some are kept (a test knob): then each copy must equal the committed state."""
    p = stress(ctest, "solo", env={"TMPY_STM_TEST_SOLO_KEEPS_PRIVATE": "1"})
    assert "ok solo: published into the writer's private pages" in p.stdout


def test_solo_off(ctest):
    p = stress(ctest, "solo", env={"TMPY_STM_SOLO": "0"})
    assert "ok solo: off" in p.stdout


@pytest.mark.parametrize("args", [("lost_update", "4"), ("bank", "4"), ("inevitable",), ("overflow",),
                                  ("major", "all"), ("cards", "4"), ("rawcards", "4")],
                         ids=lambda a: "-".join(a))
def test_move_everything(ctest, args):
    p = stress(ctest, *args, env=MOVE_SMALL)
    assert "move mode" in p.stdout


@pytest.mark.parametrize("segments", ["1", "2"])
@pytest.mark.parametrize("args", [("lost_update", "8"), ("bank", "4"), ("cards", "4"), ("rawcards", "4")],
                         ids=lambda a: "-".join(a))
def test_threads_outnumber_segments(ctest, args, segments):
    # One segment runs one transaction at a time, each a hand-over between
    # threads (the C test's commits are not followed at once by the next
    # transaction, so no time slice keeps the segment): a tenth of the work.
    # Bank at two segments: half the transfers (test_bank_opacity runs them all).
    scale = "0.1" if segments == "1" else "0.5" if args[0] == "bank" else None
    env = {"TMPY_SEGMENTS": segments, **({"TMPY_TEST_SCALE": scale} if scale else {})}
    p = stress(ctest, *args, env=env)
    assert f"{segments} segments" in p.stdout


@pytest.mark.parametrize("args", [("lost_update", "4"), ("bank", "4"), ("inevitable",)],
                         ids=lambda a: "-".join(a))
def test_wait_for_readers(ctest, args):
    """The contention policy where a committer waits for an older or
    inevitable reader instead of aborting it."""
    # bank: half the transfers (the policy shows in the first half as well)
    env = {"TMPY_STM_WAIT_FOR_READERS": "1", **({"TMPY_TEST_SCALE": "0.5"} if args[0] == "bank" else {})}
    stress(ctest, *args, env=env)
