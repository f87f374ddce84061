/* The STM's contention manager (contention.h). */
#include "contention.h"
#include "tmrt.h"
#include "stm.h"

#if TM_STM

#include <limits.h>
#include <linux/futex.h>
#include <sys/syscall.h>
#include <unistd.h>

/* The token is a ticket lock: a thread takes the next ticket and holds the
 * token while `serving` is its ticket; giving it back serves the next one.
 * Waiters sleep on `serving` (a futex word) and are counted in `sleepers`,
 * so that giving the token back makes no system call when nobody sleeps. */
static uint32_t next_ticket, serving;
static int sleepers;

#define SLICE_NS 5000000
static __thread bool continue_next;    /* tm_cm_continue_next */
static __thread uint64_t token_since;  /* when this thread took the token */
static uint64_t slice_ticks;           /* SLICE_NS in ticks, once calibrated */

#define STAT(name) (tm_self.tx_stats[TM_STAT_##name])

static bool eager(void) { return tm_cfg.stm_cm == TM_CM_CFG_EAGER; }

static void futex(uint32_t *word, int op, uint32_t val)
{
    syscall(SYS_futex, word, op, val, NULL, NULL, 0);
}

static void take_token(tm_thread *me)
{
    uint32_t ticket = __atomic_fetch_add(&next_ticket, 1, __ATOMIC_SEQ_CST);
    if (__atomic_load_n(&serving, __ATOMIC_SEQ_CST) != ticket) {
        uint64_t t0 = tm_ticks();
        /* sleepers before serving, and the giver's serving before sleepers:
         * one of the two sees the other (no lost wakeup) */
        __atomic_add_fetch(&sleepers, 1, __ATOMIC_SEQ_CST);
        uint32_t s;
        while ((s = __atomic_load_n(&serving, __ATOMIC_SEQ_CST)) != ticket)
            futex(&serving, FUTEX_WAIT_PRIVATE, s);
        __atomic_sub_fetch(&sleepers, 1, __ATOMIC_SEQ_CST);
        STAT(TOKEN_WAITS)++;
        STAT(TOKEN_WAIT_NS) += tm_ticks() - t0;
    }
    me->cm_token = true;
    token_since = tm_ticks();
}

static void give_token(tm_thread *me)
{
    me->cm_token = false;
    __atomic_add_fetch(&serving, 1, __ATOMIC_SEQ_CST);
    if (__atomic_load_n(&sleepers, __ATOMIC_SEQ_CST))
        futex(&serving, FUTEX_WAKE_PRIVATE, INT_MAX);   /* the one whose ticket it is goes on */
}

/* Keeping the token across commits for a slice, as a GIL holder keeps the
 * GIL for a switch interval, spares a handoff (a futex wake and a context
 * switch) per transaction. Only across a commit that the next transaction
 * follows at once (tm_cm_continue_next): a thread that commits to block
 * (I/O, a lock) must not keep others from running. */

void tm_cm_continue_next(void) { continue_next = true; }

bool tm_cm_next_follows(void) { return continue_next; }

static uint64_t ns_to_ticks(uint64_t *cache, uint64_t ns);

static bool slice_over(void) { return tm_ticks() - token_since > ns_to_ticks(&slice_ticks, SLICE_NS); }

bool tm_cm_holds_token(void) { return tm_self.cm_token; }

int tm_cm_token_waiters(void) { return __atomic_load_n(&sleepers, __ATOMIC_RELAXED); }

static void serialise(tm_thread *me, uint32_t probation)
{
    me->cm_mode = TM_CM_SERIAL;
    me->cm_commits = 0;
    me->cm_probation = probation;
    STAT(CM_SERIALISE)++;
}

void tm_cm_before_start(void)
{
    tm_thread *me = &tm_self;
    if (me->cm_mode != TM_CM_SERIAL)
        return;
    if (!me->cm_token)   /* an abort keeps it for the retry */
        take_token(me);
    STAT(SERIALISED)++;
}

static bool is_conflict(int cause)
{
    switch (cause) {
    case TM_ABORT_READ_WRITE:
    case TM_ABORT_WRITE_WRITE:
    case TM_ABORT_INEVITABLE:
    case TM_ABORT_RARE_WRITE:
        return true;
    default:
        return eager();
    }
}

/* A transaction lost to a conflict (or its commit cost more than it). */
static void lost(tm_thread *me)
{
    me->cm_conflicts++;
    if (me->cm_mode == TM_CM_PARALLEL && me->cm_conflicts >= (eager() ? 1u : TM_CM_ENTER_ABORTS)) {
        serialise(me, eager() ? 2 : TM_CM_PROBATION_MIN);
    } else if (me->cm_mode == TM_CM_TRIAL) {
        uint32_t p = me->cm_probation * 2, max = eager() ? 8 : TM_CM_PROBATION_MAX;
        serialise(me, p > max ? max : p);
    }
}

void tm_cm_aborted(int cause)
{
    continue_next = false;   /* the retry may end otherwise (to block) */
    if (tm_cfg.stm_cm != TM_CM_CFG_OFF && is_conflict(cause))
        lost(&tm_self);
}

/* The mode after a commit. */
/* A commit costs more than its transaction's run, and more than COSTLY_NS:
 * publishing a big object or stopping the world, which a serialised, solo
 * transaction would not pay for. */
#define COSTLY_NS 200000
static uint64_t costly_ticks;   /* COSTLY_NS in ticks, once calibrated */

static uint64_t ns_to_ticks(uint64_t *cache, uint64_t ns)
{
    uint64_t t = __atomic_load_n(cache, __ATOMIC_RELAXED);
    if (!t) {
        uint64_t per_million = tm_ticks_to_ns(1000000);
        t = per_million ? ns * 1000000 / per_million : 1;
        __atomic_store_n(cache, t, __ATOMIC_RELAXED);
    }
    return t;
}

void tm_cm_won_against(tm_thread *winner)
{
    if (tm_cfg.stm_cm != TM_CM_CFG_OFF && winner != &tm_self)
        __atomic_store_n(&winner->cm_drafted, true, __ATOMIC_RELAXED);
}

static void count_commit(tm_thread *me, bool costly)
{
    bool drafted = __atomic_exchange_n(&me->cm_drafted, false, __ATOMIC_RELAXED);
    if (costly && me->cm_mode != TM_CM_SERIAL && tm_cfg.stm_cm == TM_CM_CFG_ON) {   /* eager: scripted, no timing */
        STAT(CM_COSTLY_COMMITS)++;
        lost(me);
        return;
    }
    if (drafted && me->cm_mode != TM_CM_SERIAL && tm_cfg.stm_cm != TM_CM_CFG_OFF) {
        STAT(CM_DRAFTED)++;
        lost(me);
        return;
    }
    me->cm_conflicts = 0;
    switch (me->cm_mode) {
    case TM_CM_SERIAL:
        if (++me->cm_commits >= me->cm_probation) {
            me->cm_mode = TM_CM_TRIAL;
            me->cm_commits = 0;
            STAT(CM_TRIALS)++;
        }
        break;
    case TM_CM_TRIAL:
        if (++me->cm_commits >= (eager() ? 2u : TM_CM_TRIAL_COMMITS)) {
            me->cm_mode = TM_CM_PARALLEL;
            me->cm_commits = 0;
            STAT(CM_PARALLEL)++;
        }
        break;
    }
}

void tm_cm_committed(uint64_t run_ticks, uint64_t commit_ticks)
{
    tm_thread *me = &tm_self;
    count_commit(me, commit_ticks > run_ticks && commit_ticks > ns_to_ticks(&costly_ticks, COSTLY_NS));
    bool keep = continue_next && me->cm_mode == TM_CM_SERIAL && !slice_over();
    continue_next = false;
    if (me->cm_token && !keep)
        give_token(me);
}

/* fork() (fork.c): the token's queue held the other threads' tickets; the
 * child's one thread keeps the token if it held it, else nobody holds it. */
void tm_cm_fork_child(void)
{
    if (tm_self.cm_token)
        next_ticket = serving + 1;
    else
        serving = next_ticket;
    sleepers = 0;
}

#else

void tm_cm_before_start(void) {}
void tm_cm_aborted(int cause) { (void)cause; }
void tm_cm_won_against(tm_thread *winner) { (void)winner; }
void tm_cm_committed(uint64_t run_ticks, uint64_t commit_ticks) { (void)run_ticks, (void)commit_ticks; }
void tm_cm_continue_next(void) {}
bool tm_cm_holds_token(void) { return false; }
bool tm_cm_next_follows(void) { return false; }
int tm_cm_token_waiters(void) { return 0; }

#endif
