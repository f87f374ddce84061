/* The STM's contention manager: serialise threads that lose their work to
 * aborts, cheaply, and let them run in parallel again once the conflicts
 * stop (internal to the STM build).
 *
 * Every thread is in one of three modes:
 *  - PARALLEL: its transactions run alongside everyone's (the default).
 *  - SERIAL: it lost TM_CM_ENTER_ABORTS transactions in a row to conflicts
 *    (or to commits that cost more than the transaction's run: publishing a
 *    big object it wrote, which a solo transaction does not pay for);
 *    each of its transactions first takes the token, one for the process,
 *    and gives it back when it commits (an abort keeps it: the retry runs at
 *    once). Serialised threads thus run one at a time, as under a GIL, and
 *    cannot conflict with each other; threads without conflicts stay in
 *    PARALLEL and keep running beside them. A thread waiting for the token
 *    holds no segment: it sleeps on a futex, in a first-come first-served
 *    queue (a ticket lock). When every other segment is free, the token
 *    holder's transaction may run solo (stm.c: it writes in place, with no
 *    page privatised or published), which is what makes a serialised run as
 *    cheap as one under the GIL.
 *  - TRIAL: after `probation` serialised commits, a thread tries parallel
 *    again. TM_CM_TRIAL_COMMITS commits without a conflict abort make it
 *    PARALLEL (probation back to its minimum); a conflict abort sends it
 *    back to SERIAL with its probation doubled (up to a maximum), so a
 *    thread whose conflicts persist tries less and less often.
 *
 * Injected and explicit aborts are not conflicts and do not count, except
 * under TMPY_STM_CM=eager, a test mode in which one abort of any kind
 * serialises and two commits end a probation or a trial, so that threads
 * change modes all the time. TMPY_STM_CM=off turns the manager off. */
#ifndef TM_CONTENTION_H
#define TM_CONTENTION_H

#include "thread.h"

#include <stdbool.h>
#include <stdint.h>

enum { TM_CM_PARALLEL, TM_CM_SERIAL, TM_CM_TRIAL };

#define TM_CM_ENTER_ABORTS 2       /* conflict aborts in a row that serialise a thread */
#define TM_CM_PROBATION_MIN 16     /* serialised commits before the first trial */
#define TM_CM_PROBATION_MAX 4096
#define TM_CM_TRIAL_COMMITS 8      /* commits in a trial that end serialisation */

/* Before a transaction takes its segment: a serialised thread takes the
 * token (waiting in the queue if another thread holds it). */
void tm_cm_before_start(void);
/* The calling thread's transaction lost a write-write conflict to winner's
 * (sync_lock held): the winner's commit counts as a lost transaction for it
 * too, so that both sides of a conflict take the token, not only the loser
 * (a serialised loser waiting for the token while the winner ran on in
 * parallel went on conflicting with it: locked_counters at 2 threads went
 * serial and back to parallel 16 times, its aborts parking the other side). */
void tm_cm_won_against(tm_thread *winner);
/* The running transaction aborted (cause: enum tm_abort_cause). */
void tm_cm_aborted(int cause);
/* The running transaction committed and let its segment go, after running
 * run_ticks and committing for commit_ticks (0: solo). A commit that cost
 * more than the run, and more than 200 us, counts as a lost transaction (a
 * serialised, solo one would not pay for it). */
void tm_cm_committed(uint64_t run_ticks, uint64_t commit_ticks);

/* (tx.h) tm_cm_continue_next: the coming commit is followed at once by
 * the next transaction, so a serialised thread may keep the token across
 * it, for up to a slice of 5 ms. */
bool tm_cm_holds_token(void);
/* tm_cm_continue_next was called for the coming commit (stm.c: the
 * committer may keep its segment for its time slice). */
bool tm_cm_next_follows(void);
/* Threads asleep waiting for the token (racy: for statistics and tests). */
int tm_cm_token_waiters(void);

#endif
