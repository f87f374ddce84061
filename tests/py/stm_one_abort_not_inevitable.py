# One abort does not send a transaction's retry inevitable, however long
# the aborted run was (vm/rt/txstate.c: the time rule counts from the second
# abort in a row). An inevitable retry beside other threads stores plainly
# where it would have logged (a dict insert writes DictObj) and dooms every
# reader at its commit; on a loaded machine, where a preempted transaction
# loses milliseconds, that sent readers and writers of a shared dict
# inevitable in turn. The main thread runs `with tm.atomic:` blocks of about
# 6 ms that read a shared list item; a spinning thread (no blocking call:
# those make the next transaction inevitable) writes the item 3 ms into some
# blocks, so the block aborts once, having lost 3 ms, and its retry must not
# be inevitable. Every build prints the same; under build/tmpy the check
# uses the main thread's own counters (tm.thread_stats(): the writer's
# aborts in a row may send the writer inevitable by the same rule). With
# aborts injected (the test runs under TMPY_STM_INJECT_ABORTS too) one
# injected before the block may start the row the block's abort continues:
# a trial is judged only when none was injected in it or the one before.
import threading
import time

from support.tm_fallback import tm

TRIALS = 8
shared = [0]
phase = [0]      # trial number the writer writes in (read without the block's help)
stop = False


def stm():
    return getattr(tm, "mode", lambda: "")() == "stm"


def counts():
    if not stm():
        return 0, 0, 0
    s = tm.thread_stats()
    # solo ones ran with nobody beside them
    return s["aborts"], s["inevitable"] - s["solo"], s["aborts_by_cause"]["injected"]


def writer():
    done = 0
    while not stop:
        if phase[0] > done:
            done = phase[0]
            t0 = time.perf_counter()
            while time.perf_counter() - t0 < 0.003:
                pass
            shared[0] = done


t = threading.Thread(target=writer)
t.start()
bad = 0
injected_before = counts()[2]
for trial in range(1, TRIALS + 1):
    phase[0] = trial
    a0, i0, j0 = counts()
    with tm.atomic:
        t0 = time.perf_counter()
        seen = 0
        while time.perf_counter() - t0 < 0.006:
            seen = shared[0]
    a1, i1, j1 = counts()
    # one abort (the writer's commit) and an inevitable retry: the rule broke
    if a1 - a0 == 1 and i1 - i0 > 0 and j1 == injected_before:
        bad += 1
    injected_before = j0
stop = True
t.join()
print("trials:", TRIALS, "retries made inevitable after one abort:", bad)
