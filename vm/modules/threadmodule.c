/* The _thread module: start_new_thread, lock, RLock, _local, thread
 * identity (CPython's threading and queue are Python on top). */
#define _GNU_SOURCE
#include "eval.h"
#include "modules.h"
#include "threads.h"
#include "objects/containers.h"
#include "objects/objects.h"
#include "objects/strobj.h"

#include <errno.h>
#include <link.h>
#include <math.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static uint64_t now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* ------------------------------------------------------------------ */
/* Thread identity                                                     */
/* ------------------------------------------------------------------ */

/* get_ident() of the thread holding each runtime thread index (RLock's
 * owner in repr and _release_save). */
static unsigned long ident_by_index[TM_MAX_THREAD_INDEX + 1];

static void register_ident(void)
{
    ident_by_index[tm_self.index] = (unsigned long)pthread_self();
}

/* ------------------------------------------------------------------ */
/* Timeout arguments                                                   */
/* ------------------------------------------------------------------ */

/* acquire(blocking=True, timeout=-1) -> *ns: -1 forever, 0 try, else ns. */
static int parse_acquire_args(const char *fname, Obj *args, size_t nargs, Obj kwnames, int64_t *ns)
{
    static const char *const names[] = {"blocking", "timeout", NULL};
    Obj *a = vm_roots(2);
    int rc = -1;
    if (vm_parse_args(fname, args, nargs, kwnames, names, 0, 2, a) < 0)
        goto out;
    int blocking = 1;
    if (a[0] && (blocking = vm_is_true(a[0])) < 0)
        goto out;
    double t = -1;
    if (a[1]) {
        Obj v = vm_unwrap(a[1]);
        if (!IS_INT(v) && !IS_FLOAT(v)) {
            err_format(E_TypeError, "'%s' object cannot be interpreted as an integer", type_name(a[1]));
            goto out;
        }
        if (vm_as_double(a[1], &t) < 0)
            goto out;
        if (t != t) {   /* NaN: (int64_t)(t * 1e9) below would be undefined */
            err_set(E_ValueError, "Invalid value NaN (not a number)");
            goto out;
        }
    }
    if (!blocking && t != -1) {
        err_set(E_ValueError, "can't specify a timeout for a non-blocking call");
        goto out;
    }
    if (t < 0 && t != -1) {
        err_set(E_ValueError, "timeout value must be positive");
        goto out;
    }
    if (t > TIMEOUT_MAX) {
        /* beyond what nanoseconds in 64 bits hold, CPython fails earlier */
        err_set(E_OverflowError, t >= 9223372036.854775 ? "timestamp out of range for platform time_t"
                                                         : "timeout value is too large");
        goto out;
    }
    *ns = !blocking ? 0 : t == -1 ? TM_MONITOR_FOREVER : (int64_t)(t * 1e9);
    rc = 0;
out:
    vm_unroots(a);
    return rc;
}

/* ------------------------------------------------------------------ */
/* _thread.lock: a state word and a queue of waiters, all transactional */
/* ------------------------------------------------------------------ */
/* IterObj fields: i = the state word (LOCK_FREE, LOCK_HELD with the
 * owner's index above LOCK_FOR_SHIFT, or LOCK_RESERVED for the thread whose
 * index is there);
 * a = the waiting threads' indices, a list in arrival order (NULL until
 * the first wait); n = the index of the starving waiter (below), 0 if
 * none; kind = waiters a release woke that have not come back yet.
 *
 * Every operation, contended or not, is plain transactional code on these
 * fields (issue 20). The uncontended ones are inlined fast paths that read
 * the object once (one read barrier) and write the word (the write
 * barrier and one store): an acquire of a free lock, a release by its
 * owner with nobody waiting (no starving waiter, no queue: an emptied
 * queue is dropped, so the release reads no list), an RLock's nested
 * levels; the rest are out-of-line slow paths, counted for tm.stats()
 * (thread_lock_slow_*). A release that lets a waiter go takes it off the
 * queue and asks for its wake-up after the commit (runtime/wake.h: an abort
 * drops it); a waiter registers in its transaction, commits, sleeps on its
 * own wake word holding no segment, and checks again in a new transaction.
 * Under STM no lock operation becomes inevitable (the monitor of the lock
 * object they used before made every contended release and every wait an
 * inevitable slow path: queue_pipeline ran 1,236 of its 1,243 transactions
 * inevitable). Under the GIL the same code wakes at once.
 *
 * Eventually fair (issue 20). A release with waiters lets the lock go and
 * wakes the first waiter (unless one woken is still on its way back): the
 * releaser may take the lock again before the woken thread runs, as with
 * CPython's lock. Handing every release to the waiter instead made every
 * contended release a thread switch: two threads inserting into one tree
 * under one lock ran 5x slower at 2 threads than at 1 under tmpy-gil, where
 * python3 does not slow down. A woken waiter that finds the lock taken
 * again becomes the starving waiter (n), and the next release reserves the
 * lock for it (LOCK_RESERVED: nobody else can take it): so a thread that
 * takes and releases the lock in a tight loop cannot starve a waiter
 * (tests/py/thread_lock_fairness.py), which under STM, where the woken
 * thread runs only after the releaser's transaction commits, it would. */

enum { LOCK_FREE = 0, LOCK_HELD = 1, LOCK_RESERVED = 2, LOCK_STATE = 3 };
#define LOCK_FOR_SHIFT 8   /* the owner's index (LOCK_HELD) or the one it is reserved for */
#define LOCK_HELD_BY_ME (LOCK_HELD | (int64_t)tm_self.index << LOCK_FOR_SHIFT)
#define LOCK_WORD(o) (ITER(o)->i)
#define LOCK_QUEUE(o) (ITER(o)->a)
#define LOCK_STARVING(o) (ITER(o)->n)
#define LOCK_WOKEN(o) (ITER(o)->kind)

/* The count of the locks this thread holds (vm_ts.locks_held), which only
 * the STM's yield points read (vm_tx_locks_may_end): a transaction runs on
 * past its length to the release of a lock it took, so that it does not
 * publish the lock held. Only a lock that guards a critical section should
 * count; a lock used as a signal would keep the count up while nothing
 * is in a critical section, so every transaction of the thread would run
 * four lengths more until its next wait (which resets the count). The
 * lock's aux field (b: NULL, or a small int of these bits) says which
 * holdings count:
 * - LOCK_UNCOUNTED: no holding of the lock counts. A thread's sentinel
 *   (_set_sentinel: held for the thread's whole life), and a lock that a
 *   thread other than its owner released: a signal, as a Condition's
 *   waiter lock (taken by the waiter, released by notify, taken again by
 *   the waiter and dropped).
 * - LOCK_PROBED: the present holding no longer counts: its owner tried to
 *   take it again (it blocks until another thread releases it, a signal
 *   again, or probes it: Condition's _is_owned over a plain Lock, a
 *   Condition.wait(0) whose waiter lock is then dropped held).
 * - LOCK_OWED: another thread released a counted holding: its owner,
 *   whose index is above LOCK_FOR_SHIFT, still counts it, and takes one off
 *   its count when it next takes the lock (the waiter taking its waiter
 *   lock back after notify released it).
 * The GIL build keeps no count. */
enum { LOCK_UNCOUNTED = 1, LOCK_PROBED = 2, LOCK_OWED = 4 };
#define LOCK_AUX(o) (ITER(o)->b)

#if TM_STM
static inline void locks_held_dec(void)
{
    if (vm_ts.locks_held > 0)
        vm_ts.locks_held--;
}

static void lock_set_aux(Obj lock, int64_t aux)
{
    VM_WRITE(lock);
    LOCK_AUX(lock) = aux ? MAKE_SMALLINT(aux) : NULL;
}

/* The calling thread took the lock (its word says so): count the holding
 * unless the lock is uncounted; pay what an owed one left. */
static __attribute__((noinline)) void lock_aux_taken(Obj lock)
{
    int64_t aux = SMALLINT_VAL(LOCK_AUX(lock));
    if ((aux & LOCK_OWED) && (unsigned)(aux >> LOCK_FOR_SHIFT) == tm_self.index)
        locks_held_dec();
    lock_set_aux(lock, aux & LOCK_UNCOUNTED);
    if (!(aux & LOCK_UNCOUNTED))
        vm_ts.locks_held++;
}

/* `aux`: the lock's aux field, which the inlined fast paths read through
 * the pointer they have (no second read barrier). */
static inline void lock_count_taken_aux(Obj lock, Obj aux)
{
    if (likely(!aux))
        vm_ts.locks_held++;
    else
        lock_aux_taken(lock);
}
#define lock_count_taken(lock) lock_count_taken_aux(lock, LOCK_AUX(lock))

/* The lock, held by the thread of index `owner`, is let go by the calling
 * thread (the word is written after this). */
static __attribute__((noinline)) void lock_aux_released(Obj lock, unsigned owner)
{
    int64_t aux = LOCK_AUX(lock) ? SMALLINT_VAL(LOCK_AUX(lock)) : 0;
    bool counted = !(aux & (LOCK_UNCOUNTED | LOCK_PROBED));
    if (owner == tm_self.index) {
        if (counted)
            locks_held_dec();
        aux &= ~(int64_t)LOCK_PROBED;
    } else {   /* another thread's lock: a signal from now on */
        aux = LOCK_UNCOUNTED;
        if (counted)
            aux |= LOCK_OWED | (int64_t)owner << LOCK_FOR_SHIFT;
    }
    lock_set_aux(lock, aux);
}

static inline void lock_count_released_aux(Obj lock, Obj aux, unsigned owner)
{
    if (likely(!aux) && likely(owner == tm_self.index))
        locks_held_dec();
    else
        lock_aux_released(lock, owner);
}
#define lock_count_released(lock, owner) lock_count_released_aux(lock, LOCK_AUX(lock), owner)

/* The calling thread, which holds the lock, tries to take it again. */
static void lock_aux_probed(Obj *slot)
{
    int64_t aux = LOCK_AUX(*slot) ? SMALLINT_VAL(LOCK_AUX(*slot)) : 0;
    if (aux & (LOCK_UNCOUNTED | LOCK_PROBED))
        return;
    locks_held_dec();
    lock_set_aux(*slot, aux | LOCK_PROBED);
}
#else
#define lock_count_taken_aux(lock, aux) ((void)0)
#define lock_count_taken(lock) ((void)0)
#define lock_count_released_aux(lock, aux, owner) ((void)0)
#define lock_count_released(lock, owner) ((void)0)
#define lock_aux_probed(slot) ((void)0)
#endif

static TypeObj *T_lock, *T_rlock, *T_local;

uint64_t thread_lock_slow_acquires, thread_lock_slow_releases;
#define COUNT_SLOW(c) __atomic_add_fetch(&(c), 1, __ATOMIC_RELAXED)

static Obj lock_new_obj(void)
{
    Obj l = iter_alloc(T_lock, NULL, 0);
    return l ? l : err_nomemory();
}

static void lock_set_word(Obj *slot, int64_t word)
{
    VM_WRITE(*slot);
    LOCK_WORD(*slot) = word;
}

/* The calling thread joins the lock's queue (at the tail). -1: MemoryError. */
static int lock_queue_push(Obj *slot)
{
    if (!LOCK_QUEUE(*slot)) {
        Obj q = list_new_capacity(4);
        if (!q)
            return -1;
        VM_WRITE(*slot);
        LOCK_QUEUE(*slot) = q;
    }
    return list_append(LOCK_QUEUE(*slot), MAKE_SMALLINT(tm_self.index));
}

/* Where the calling thread is in the lock's queue, or -1. */
static int64_t lock_queue_find(Obj lock)
{
    Obj q = LOCK_QUEUE(lock);
    if (!q)
        return -1;
    Obj me = MAKE_SMALLINT(tm_self.index);
    int64_t n = LIST_LEN(q);
    for (int64_t i = 0; i < n; i++)
        if (LIST_ITEMS(q)[i] == me)
            return i;
    return -1;
}

/* Take the thread at position i off the queue; its index. The queue
 * emptied goes (NULL): a release reads no list to see nobody waits. */
static unsigned lock_queue_take(Obj lock, int64_t i)
{
    Obj q = LOCK_QUEUE(lock);
    Obj v = list_pop(q, i);   /* no allocation: small ints */
    if (LIST_LEN(q) == 0) {
        VM_WRITE(lock);
        LOCK_QUEUE(lock) = NULL;
    }
    return (unsigned)((intptr_t)v >> 1);
}

/* The calling thread's wait for the lock in *slot ends: whether it is
 * now the lock's owner. Called in the transaction that checks after a
 * wake-up (or a timeout or an interrupt); `leaving`: it will not wait
 * again, so it also takes itself off the queue or the starving place. */
static bool lock_wait_check(Obj *slot, bool leaving)
{
    Obj lock = *slot;
    int64_t word = LOCK_WORD(lock);
    unsigned me = tm_self.index;
    if ((word & LOCK_STATE) == LOCK_RESERVED && (word >> LOCK_FOR_SHIFT) == me) {
        lock_set_word(slot, LOCK_HELD_BY_ME);   /* handed over to us */
        return true;
    }
    if (LOCK_STARVING(lock) == me) {   /* waiting for a release to reserve it */
        if (leaving) {
            VM_WRITE(*slot);
            LOCK_STARVING(*slot) = 0;
        }
        return false;
    }
    int64_t at = lock_queue_find(lock);
    if (at >= 0) {   /* not woken yet */
        if (leaving)
            lock_queue_take(lock, at);
        return false;
    }
    /* Woken by a release: ours if nobody took it before we ran. */
    VM_WRITE(*slot);
    LOCK_WOKEN(*slot)--;
    if ((word & LOCK_STATE) == LOCK_FREE) {
        LOCK_WORD(*slot) = LOCK_HELD_BY_ME;
        return true;
    }
    if (!leaving) {
        if (!LOCK_STARVING(*slot))
            LOCK_STARVING(*slot) = me;   /* the next release reserves it for us */
        else if (lock_queue_push(slot) < 0)
            err_clear();   /* cannot happen: the list had room for us */
    }
    return false;
}

/* The uncontended acquire (issue 20): the lock is free, and taking it is
 * a transactional write of its word (one read barrier, the write barrier,
 * one store), inlined into the methods; everything else is the slow path
 * below. Whether a woken waiter is on its way back does not matter: it
 * checks again (lock_wait_check). */
static inline bool lock_take_fast(Obj lock)
{
    IterObj *it = ITER(lock);
    if (unlikely(it->i != LOCK_FREE))
        return false;
    VM_WRITE(lock);
    it->i = LOCK_HELD_BY_ME;
    lock_count_taken_aux(lock, it->b);
    return true;
}

/* Acquire the lock in *slot (a root slot: the lock may move while we
 * wait), which lock_take_fast found taken. Returns 1 when taken, 0 at the
 * timeout, -1 with the exception a signal handler raised: a signal ends
 * the main thread's wait, which leaves the queue, runs the handlers and,
 * unless one raised, queues again (PEP 475). */
static __attribute__((noinline)) int lock_acquire_slow(Obj *slot, int64_t timeout_ns, bool interruptible)
{
    COUNT_SLOW(thread_lock_slow_acquires);
    int64_t word = LOCK_WORD(*slot);
    if ((word & LOCK_STATE) == LOCK_FREE) {   /* cannot be, unless a caller skipped the fast path */
        lock_set_word(slot, LOCK_HELD_BY_ME);
        lock_count_taken(*slot);
        return 1;
    }
    if (word == LOCK_HELD_BY_ME)   /* a plain lock we hold: a signal, or a probe */
        lock_aux_probed(slot);
    if (timeout_ns == 0)
        return 0;
    int64_t now = (int64_t)now_ns();
    int64_t deadline = timeout_ns < 0 || timeout_ns > TM_PARK_FOREVER - now ? TM_PARK_FOREVER : now + timeout_ns;
    uint64_t t0 = tm_wait_begin();   /* fairness statistics (tx.h) */
    if (lock_queue_push(slot) < 0)
        return -1;
    /* The wait commits: what this thread holds is published held anyway,
     * so no later transaction runs on for it (vm_tx_locks_may_end). */
    vm_ts.locks_held = 0;
    int got = 0;
    for (;;) {
        /* Before the commit that publishes our registration (wake.h). */
        tm_wake_prepare();
        vm_blocking_begin();
        int r = tm_wake_wait(deadline, interruptible);
        vm_blocking_end();
        bool interrupted = r == TM_PARK_INTERRUPTED && tm_interrupted();
        bool timed_out = deadline != TM_PARK_FOREVER && (int64_t)now_ns() >= deadline;
        if (lock_wait_check(slot, interrupted || timed_out)) {
            got = 1;
            break;
        }
        if (timed_out)
            break;
        if (interrupted) {
            if (vm_signals_check() < 0)
                return -1;
            word = LOCK_WORD(*slot);
            if ((word & LOCK_STATE) == LOCK_FREE) {
                lock_set_word(slot, LOCK_HELD_BY_ME);
                got = 1;
                break;
            }
            if (lock_queue_push(slot) < 0)
                return -1;
        }
    }
    tm_wait_end(TM_WAIT_LOCK, t0);
    if (got)
        lock_count_taken(*slot);
#if TM_STM
    /* The transaction after a wait runs inevitable (vm_blocking_end): it
     * ends at the next yield point it may end at (with the lock held: at
     * its release, vm_tx_locks_may_end), so the thread runs on in
     * transactions that may abort, beside the others. */
    vm_tx_countdown = 1;
#endif
    return got;
}

static inline int lock_acquire_slot(Obj *slot, int64_t timeout_ns, bool interruptible)
{
    return likely(lock_take_fast(*slot)) ? 1 : lock_acquire_slow(slot, timeout_ns, interruptible);
}

/* The uncontended release: the caller's lock, and nobody waits for it (no
 * starving waiter, no queue: lock_queue_take drops an emptied one), so
 * releasing it is a transactional write of its word. A lock held by
 * another thread (a Lock may be released by any thread) or with waiters
 * goes to lock_release_obj. */
static inline bool lock_release_fast(Obj lock)
{
    IterObj *it = ITER(lock);
    if (unlikely(it->i != LOCK_HELD_BY_ME || it->n != 0 || it->a != NULL))
        return false;
    VM_WRITE(lock);
    it->i = LOCK_FREE;
    lock_count_released_aux(lock, it->b, tm_self.index);
    return true;
}

static __attribute__((noinline)) int lock_release_obj(Obj *slot)
{
    COUNT_SLOW(thread_lock_slow_releases);
    Obj lock = *slot;
    int64_t word = LOCK_WORD(lock);
    if ((word & LOCK_STATE) == LOCK_FREE) {
        err_set(E_RuntimeError, "release unlocked lock");
        return -1;
    }
    /* The count for the STM's transaction lengths (txstate.c) of the locks
     * the owner holds (a Condition's notify releases the waiter's lock). */
    if ((word & LOCK_STATE) == LOCK_HELD)
        lock_count_released(lock, (unsigned)((word >> LOCK_FOR_SHIFT) & 0xffff));
    int64_t starving = LOCK_STARVING(lock);
    if (starving) {   /* hand it to the waiter that lost it once */
        VM_WRITE(lock);
        LOCK_WORD(lock) = LOCK_RESERVED | (starving << LOCK_FOR_SHIFT);
        LOCK_STARVING(lock) = 0;
        tm_wake_after_commit((unsigned)starving);
        return 0;
    }
    VM_WRITE(lock);
    LOCK_WORD(lock) = LOCK_FREE;
    Obj q = LOCK_QUEUE(lock);
    if (!q || LIST_LEN(q) == 0 || LOCK_WOKEN(lock) > 0)
        return 0;   /* nobody to wake, or one woken already on its way */
    LOCK_WOKEN(lock)++;
    tm_wake_after_commit(lock_queue_take(lock, 0));
    return 0;
}

static __attribute__((noinline)) Obj lock_acquire_args(Obj *args, size_t nargs, Obj kwnames)
{
    int64_t ns;
    if (parse_acquire_args("acquire", args + 1, nargs - 1, kwnames, &ns) < 0)
        return NULL;
    int rc = lock_acquire_slot(&args[0], ns, true);
    return rc < 0 ? NULL : rc ? g_True : g_False;
}

static Obj lock_acquire(Obj *args, size_t nargs, Obj kwnames)
{
    if (nargs == 1 && !kwnames && likely(lock_take_fast(args[0])))
        return g_True;
    return lock_acquire_args(args, nargs, kwnames);
}

static Obj lock_enter(Obj *args, size_t nargs, Obj kwnames)
{
    return lock_acquire_slot(&args[0], TM_MONITOR_FOREVER, true) < 0 ? NULL : g_True;
}

static Obj lock_release(Obj *args, size_t nargs, Obj kwnames)
{
    if (likely(lock_release_fast(args[0])))
        return g_None;
    return lock_release_obj(&args[0]) < 0 ? NULL : g_None;
}

static Obj lock_locked(Obj *args, size_t nargs, Obj kwnames)
{
    return (LOCK_WORD(args[0]) & LOCK_STATE) != LOCK_FREE ? g_True : g_False;
}

/* _at_fork_reinit(): in a forked child the lock is free again: whoever held
 * it or waited for it was another thread, gone (runtime/fork.c). A
 * sentinel stays uncounted (threading takes the forking thread's again). */
static Obj lock_at_fork_reinit(Obj *args, size_t nargs, Obj kwnames)
{
    Obj aux = LOCK_AUX(args[0]);
    VM_WRITE(args[0]);
    LOCK_WORD(args[0]) = LOCK_FREE;
    LOCK_QUEUE(args[0]) = NULL;
    LOCK_STARVING(args[0]) = 0;
    LOCK_WOKEN(args[0]) = 0;
    LOCK_AUX(args[0]) = aux && (SMALLINT_VAL(aux) & LOCK_UNCOUNTED) ? MAKE_SMALLINT(LOCK_UNCOUNTED) : NULL;
    return g_None;
}

static Obj lock_repr(Obj self)
{
    uint64_t id = vm_object_id_slot(&self);
    bool locked = (LOCK_WORD(self) & LOCK_STATE) != LOCK_FREE;
    return str_from_format("<%s _thread.lock object at 0x%lx>", locked ? "locked" : "unlocked", (unsigned long)id);
}

static Obj lock_tp_new(Obj type, Obj *args, size_t nargs, Obj kwnames)
{
    (void)type;
    if (vm_check_args("lock", nargs, kwnames, 0, 0) < 0)
        return NULL;
    return lock_new_obj();
}

static const MethodDef lock_methods[] = {
    {"acquire", lock_acquire, METH_KW, "Lock the lock."},
    {"acquire_lock", lock_acquire, METH_KW, NULL},
    {"__enter__", lock_enter, METH_NOARGS, NULL},
    {"release", lock_release, 0, "Release the lock."},
    {"release_lock", lock_release, 0, NULL},
    {"__exit__", lock_release, 0, NULL},
    {"locked", lock_locked, METH_NOARGS, "Test whether the lock is currently locked."},
    {"locked_lock", lock_locked, METH_NOARGS, NULL},
    {"_at_fork_reinit", lock_at_fork_reinit, METH_NOARGS, NULL},
    {NULL, NULL, 0, NULL},
};

/* ------------------------------------------------------------------ */
/* _thread.RLock: a _thread.lock that counts its owner's levels         */
/* ------------------------------------------------------------------ */
/* The lock's fields and operations, with the owner's nesting count minus
 * one in the state word above RLOCK_COUNT_SHIFT: a nested acquire or release is
 * a transactional write of the word, a first acquire and a last release
 * are the lock's, so a contended RLock is no monitor slow path either
 * (issue 20; it was the object's monitor, inevitable once contended under
 * STM). A subclass's instance wraps the lock object (TPF_ITER_VALUE): the
 * methods and the repr unwrap it. */
#define RLOCK_COUNT_SHIFT 32
#define RLOCK_ONE ((int64_t)1 << RLOCK_COUNT_SHIFT)

static Obj rlock_tp_new(Obj type, Obj *args, size_t nargs, Obj kwnames)
{
    Obj l = iter_alloc(T_rlock, NULL, 0);
    return l ? l : err_nomemory();
}

/* The owner's thread index, 0 if free (or reserved for a waiter). */
static unsigned rlock_owner(Obj lock)
{
    int64_t word = LOCK_WORD(lock);
    return (word & LOCK_STATE) == LOCK_HELD ? (unsigned)((word >> LOCK_FOR_SHIFT) & 0xffff) : 0;
}

/* The calling thread's levels of the lock (0: not its owner). */
static uint64_t rlock_count(Obj lock)
{
    return rlock_owner(lock) == tm_self.index ? (uint64_t)(LOCK_WORD(lock) >> RLOCK_COUNT_SHIFT) + 1 : 0;
}

/* The uncontended RLock acquire, inlined into the methods: a free lock, or
 * one more level of the caller's own, is a transactional write of its
 * word. `lock` is the lock object (a subclass's instance unwrapped). */
static inline bool rlock_take_fast(Obj lock)
{
    IterObj *it = ITER(lock);
    int64_t word = it->i;
    if (word == LOCK_FREE) {
        VM_WRITE(lock);
        it->i = LOCK_HELD_BY_ME;
        lock_count_taken_aux(lock, it->b);
        return true;
    }
    /* one more level, unless the count is at its bound (the slow path raises) */
    if (unlikely((word & (RLOCK_ONE - 1)) != LOCK_HELD_BY_ME || (uint64_t)word >= ((uint64_t)1 << 62)))
        return false;
    VM_WRITE(lock);
    it->i = word + RLOCK_ONE;
    return true;
}

/* The uncontended RLock release: one of the caller's levels, not the last,
 * or the last with nobody waiting (lock_release_fast). */
static inline bool rlock_release_fast(Obj lock)
{
    IterObj *it = ITER(lock);
    int64_t word = it->i;
    if (unlikely((word & (RLOCK_ONE - 1)) != LOCK_HELD_BY_ME))
        return false;
    if (word >= RLOCK_ONE) {
        VM_WRITE(lock);
        it->i = word - RLOCK_ONE;
        return true;
    }
    if (unlikely(it->n != 0 || it->a != NULL))
        return false;
    VM_WRITE(lock);
    it->i = LOCK_FREE;
    lock_count_released_aux(lock, it->b, tm_self.index);
    return true;
}

/* Take the RLock in *slot (a root slot holding the lock object, not a
 * subclass's instance) `levels` more times. Returns as lock_acquire_slot. */
static int rlock_acquire_slot(Obj *slot, int64_t timeout_ns, uint64_t levels, bool interruptible)
{
    int64_t word = LOCK_WORD(*slot);
    if ((word & (RLOCK_ONE - 1)) != LOCK_HELD_BY_ME) {
        int rc = lock_acquire_slot(slot, timeout_ns, interruptible);
        if (rc <= 0 || --levels == 0)   /* one level now: nothing above the owner in the word */
            return rc;
        word = LOCK_WORD(*slot);
    }
    if ((uint64_t)(word >> RLOCK_COUNT_SHIFT) + levels >= ((uint64_t)1 << 31)) {
        err_set(E_OverflowError, "Internal lock count overflowed");
        return -1;
    }
    lock_set_word(slot, word + (int64_t)levels * RLOCK_ONE);
    return 1;
}

/* A root slot holding the lock object: the argument's own, or, for a
 * subclass's instance, one of *roots (given back with vm_unroots). */
static Obj *rlock_slot(Obj *arg, Obj **roots)
{
    *roots = NULL;
    if (!IS_INSTANCE(*arg))
        return arg;
    *roots = vm_roots(1);
    (*roots)[0] = vm_unwrap(*arg);
    return *roots;
}

/* The methods' slow paths are functions of their own, so that the fast
 * paths save no registers (a call of the GIL build's RLock pair was 60
 * instructions, 18 of them saving and restoring registers). */
static __attribute__((noinline)) Obj rlock_acquire_slow(Obj *args, size_t nargs, Obj kwnames)
{
    int64_t ns;
    if (parse_acquire_args("acquire", args + 1, nargs - 1, kwnames, &ns) < 0)
        return NULL;
    Obj *r, *slot = rlock_slot(&args[0], &r);
    int rc = rlock_acquire_slot(slot, ns, 1, true);
    if (r)
        vm_unroots(r);
    return rc < 0 ? NULL : rc ? g_True : g_False;
}

static Obj rlock_acquire(Obj *args, size_t nargs, Obj kwnames)
{
    if (nargs == 1 && !kwnames && likely(rlock_take_fast(vm_unwrap(args[0]))))
        return g_True;
    return rlock_acquire_slow(args, nargs, kwnames);
}

static __attribute__((noinline)) Obj rlock_enter_slow(Obj *args)
{
    Obj *r, *slot = rlock_slot(&args[0], &r);
    int rc = rlock_acquire_slot(slot, TM_MONITOR_FOREVER, 1, true);
    if (r)
        vm_unroots(r);
    return rc < 0 ? NULL : g_True;
}

static Obj rlock_enter(Obj *args, size_t nargs, Obj kwnames)
{
    if (likely(rlock_take_fast(vm_unwrap(args[0]))))
        return g_True;
    return rlock_enter_slow(args);
}

/* Let go of `levels` of the caller's levels (all of them if as many). */
static void rlock_release_levels(Obj *slot, uint64_t levels)
{
    int64_t word = LOCK_WORD(*slot);
    if (levels <= (uint64_t)(word >> RLOCK_COUNT_SHIFT)) {
        lock_set_word(slot, word - (int64_t)levels * RLOCK_ONE);
        return;
    }
    if (word >> RLOCK_COUNT_SHIFT)
        lock_set_word(slot, word & (RLOCK_ONE - 1));
    lock_release_obj(slot);   /* ours: cannot fail */
}

static __attribute__((noinline)) Obj rlock_release_slow(Obj *args)
{
    Obj *r, *slot = rlock_slot(&args[0], &r);
    bool owned = (LOCK_WORD(*slot) & (RLOCK_ONE - 1)) == LOCK_HELD_BY_ME;
    if (owned)
        rlock_release_levels(slot, 1);
    if (r)
        vm_unroots(r);
    if (!owned) {
        err_set(E_RuntimeError, "cannot release un-acquired lock");
        return NULL;
    }
    return g_None;
}

static Obj rlock_release(Obj *args, size_t nargs, Obj kwnames)
{
    if (likely(rlock_release_fast(vm_unwrap(args[0]))))
        return g_None;
    return rlock_release_slow(args);
}

static Obj rlock_is_owned(Obj *args, size_t nargs, Obj kwnames)
{
    return rlock_count(vm_unwrap(args[0])) ? g_True : g_False;
}

static Obj rlock_recursion_count(Obj *args, size_t nargs, Obj kwnames)
{
    return int_from_u64(rlock_count(vm_unwrap(args[0])));
}

static Obj rlock_release_save(Obj *args, size_t nargs, Obj kwnames)
{
    Obj *r = vm_roots(1);
    r[0] = vm_unwrap(args[0]);
    Obj res = NULL;
    uint64_t count = rlock_count(r[0]);
    if (!count) {
        err_set(E_RuntimeError, "cannot release un-acquired lock");
    } else {
        /* The state is built before the release: building it may collect. */
        Obj *st = vm_roots(2);
        st[0] = int_from_u64(count);
        st[1] = st[0] ? int_from_u64(ident_by_index[tm_self.index]) : NULL;
        if (st[1] && (res = tuple_pack(2, st[0], st[1])))
            rlock_release_levels(&r[0], count);
        vm_unroots(st);
    }
    vm_unroots(r);
    return res;
}

static Obj rlock_acquire_restore(Obj *args, size_t nargs, Obj kwnames)
{
    Obj st = args[1];
    int64_t count;
    if (!IS_TUPLE(st) || TUPLE_LEN(st) != 2 || int_as_i64(TUPLE_ITEMS(st)[0], &count) < 0 || count < 1) {
        if (!err_occurred())
            err_set(E_TypeError, "_acquire_restore() argument must be a (count, owner) tuple");
        return NULL;
    }
    Obj *r = vm_roots(1);
    r[0] = vm_unwrap(args[0]);
    int rc = rlock_acquire_slot(&r[0], TM_MONITOR_FOREVER, (uint64_t)count, false);   /* a wait that must finish */
    vm_unroots(r);
    return rc < 0 ? NULL : g_None;
}

static Obj rlock_at_fork_reinit(Obj *args, size_t nargs, Obj kwnames)
{
    Obj l = vm_unwrap(args[0]);
    VM_WRITE(l);
    LOCK_WORD(l) = LOCK_FREE;
    LOCK_QUEUE(l) = NULL;
    LOCK_STARVING(l) = 0;
    LOCK_WOKEN(l) = 0;
    return g_None;
}

static Obj rlock_repr(Obj self)
{
    uint64_t id = vm_object_id_slot(&self);
    Obj l = vm_unwrap(self);
    unsigned owner = rlock_owner(l);
    uint64_t count = owner ? (uint64_t)(LOCK_WORD(l) >> RLOCK_COUNT_SHIFT) + 1 : 0;
    return str_from_format("<%s %s object owner=%lu count=%lu at 0x%lx>", owner ? "locked" : "unlocked",
                           type_name(self), owner ? ident_by_index[owner] : 0UL, (unsigned long)count,
                           (unsigned long)id);
}

static const MethodDef rlock_methods[] = {
    {"acquire", rlock_acquire, METH_KW, "Lock the lock."},
    {"__enter__", rlock_enter, METH_NOARGS, NULL},
    {"release", rlock_release, 0, "Release the lock."},
    {"__exit__", rlock_release, 0, NULL},
    {"_is_owned", rlock_is_owned, METH_NOARGS, NULL},
    {"_recursion_count", rlock_recursion_count, METH_NOARGS, NULL},
    {"_release_save", rlock_release_save, METH_NOARGS, NULL},
    {"_acquire_restore", rlock_acquire_restore, METH_O, NULL},
    {"_at_fork_reinit", rlock_at_fork_reinit, METH_NOARGS, NULL},
    {NULL, NULL, 0, NULL},
};

/* ------------------------------------------------------------------ */
/* _thread._local                                                      */
/* ------------------------------------------------------------------ */
/* Each thread keeps, in its root slot ROOT_THREAD_LOCALS, a dict from a
 * local object's id() to (local, that thread's attribute dict); every
 * attribute access first installs the calling thread's dict as the instance
 * dict (under the GIL nothing runs between the swap and the lookup).
 * g_local_args maps id() to (local, args, kwargs), for __init__ in each new
 * thread. Keys are ids, checked against the stored object, so that a
 * subclass's own __hash__/__eq__ (or none: __eq__ without __hash__) never
 * runs or fails here. */
static Obj g_local_args;

/* The entry of `table` for the object in *slot (a root), or NULL; *key gets
 * its id (an int). */
static Obj local_entry(Obj table, Obj *slot, Obj *key)
{
    uint64_t id = vm_object_id(*slot);   /* may collect: *slot is re-read */
    if (!(*key = int_from_u64(id)))
        return NULL;
    Obj e = dict_getitem(table, *key);
    return e && TUPLE_ITEMS(e)[0] == *slot ? e : NULL;
}

/* Make self's dict the calling thread's one; 1 if it was just made. */
static int local_select(Obj *slot)
{
    Obj *r = vm_roots(3);   /* key, entry, new dict */
    int rc = -1;
    if (!vm_ts.roots[ROOT_THREAD_LOCALS] && !(vm_ts.roots[ROOT_THREAD_LOCALS] = dict_new()))
        goto out;
    r[1] = local_entry(vm_ts.roots[ROOT_THREAD_LOCALS], slot, &r[0]);
    if (!r[1]) {
        if (!r[0] || err_occurred() || !(r[2] = dict_new()) || !(r[1] = tuple_pack(2, *slot, r[2])) ||
            dict_setitem(vm_ts.roots[ROOT_THREAD_LOCALS], r[0], r[1]) < 0)
            goto out;
        rc = 1;
    } else {
        rc = 0;
    }
    VM_WRITE(*slot);
    INST(*slot)->dict = TUPLE_ITEMS(r[1])[1];
out:
    vm_unroots(r);
    return rc;
}

/* First use in this thread: run type(self).__init__(self, *args, **kw). */
static int local_first_use(Obj *slot)
{
    Obj *r = vm_roots(3);
    int rc = -1;
    r[0] = local_entry(g_local_args, slot, &r[1]);
    if (!r[0]) {
        rc = err_occurred() ? -1 : 0;
        goto out;
    }
    r[1] = vm_getattr_cstr((Obj)TYPE(*slot), "__init__");
    if (!r[1])
        goto out;
    r[2] = method_new(r[1], *slot);
    if (!r[2] || !(r[2] = vm_call_tuple_dict(r[2], TUPLE_ITEMS(r[0])[1], TUPLE_ITEMS(r[0])[2])))
        goto out;
    rc = 0;
out:
    vm_unroots(r);
    return rc;
}

static int local_prepare(Obj *slot)
{
    int made = local_select(slot);
    if (made <= 0)
        return made;
    if (local_first_use(slot) < 0)
        return -1;
    return local_select(slot) < 0 ? -1 : 0;   /* __init__ may have switched threads */
}

static Obj local_getattro(Obj self, Obj name)
{
    Obj *r = vm_roots(1);
    r[0] = self;
    Obj res = NULL;
    if (local_prepare(&r[0]) < 0)
        ;
    else if (IS_STR(name) && strcmp(str_cstr(name), "__dict__") == 0)
        res = INST(r[0])->dict;
    else
        res = vm_generic_getattr(r[0], name);
    vm_unroots(r);
    return res;
}

static int local_setattro(Obj self, Obj name, Obj value)
{
    Obj *r = vm_roots(3);
    r[0] = self;
    r[1] = name;
    r[2] = value;
    int rc = -1;
    if (IS_STR(name) && strcmp(str_cstr(name), "__dict__") == 0) {
        err_format(E_AttributeError, "'%s' object attribute '__dict__' is read-only", type_name(self));
        goto out;
    }
    if (local_prepare(&r[0]) < 0)
        goto out;
    rc = vm_generic_setattr(r[0], r[1], r[2]);
out:
    vm_unroots(r);
    return rc;
}

static Obj local_tp_new(Obj type, Obj *args, size_t nargs, Obj kwnames)
{
    Obj *r = vm_roots(4);
    Obj res = NULL;
    size_t nkw = kwnames ? (size_t)TUPLE_LEN(kwnames) : 0;
    if (nargs + nkw > 0) {
        /* object.__init__ is pinned: it does not move while the type's is looked up */
        Obj base_init = vm_getattr_cstr((Obj)T_object, "__init__");
        Obj init = base_init ? vm_getattr_cstr(type, "__init__") : NULL;
        if (!init)
            goto out;
        if (init == base_init) {
            err_set(E_TypeError, "Initialization arguments are not supported");
            goto out;
        }
    }
    r[0] = instance_new((TypeObj *)type);
    if (!r[0])
        goto out;
    /* (args tuple, kwargs dict) */
    r[1] = tuple_new((int64_t)nargs);
    if (!r[1])
        goto out;
    for (size_t i = 0; i < nargs; i++)
        TUPLE_ITEMS(r[1])[i] = args[i];
    r[2] = dict_new();
    if (!r[2])
        goto out;
    for (size_t i = 0; i < nkw; i++)
        if (dict_setitem(r[2], TUPLE_ITEMS(kwnames)[i], args[nargs + i]) < 0)
            goto out;
    r[3] = tuple_pack(3, r[0], r[1], r[2]);
    if (!r[3])
        goto out;
    r[1] = int_from_u64(vm_object_id(r[0]));   /* the key (r[0] is a root: may move) */
    if (!r[1] || dict_setitem(g_local_args, r[1], r[3]) < 0 || local_select(&r[0]) < 0)
        goto out;
    res = r[0];
out:
    vm_unroots(r);
    return res;
}

/* ------------------------------------------------------------------ */
/* Starting threads                                                    */
/* ------------------------------------------------------------------ */

/* (function, args, kwargs) of threads started but not yet running, by a
 * serial number handed to the new OS thread. */
static Obj g_boot;
static int64_t boot_serial;
static size_t thread_stack_size;   /* 0: the system default */
/* The root slot (in thread_main's frame) of the thread's sentinel lock, made
 * by _set_sentinel(); NULL in threads not started by start_new_thread. */
static __thread Obj *sentinel_slot;

/* glibc carves a thread's static TLS out of its stack, and tmpy's is big
 * (the per-thread type attribute cache alone is 192 KiB): a stack of
 * threading.stack_size(256 KiB) left nothing, and pthread_create refused.
 * The stack a program asks for is what its Python code gets: the TLS
 * blocks of every loaded object are added on top. */
static int add_tls_size(struct dl_phdr_info *info, size_t size, void *sum)
{
    for (int i = 0; i < info->dlpi_phnum; i++)
        if (info->dlpi_phdr[i].p_type == PT_TLS) {
            size_t align = info->dlpi_phdr[i].p_align ? info->dlpi_phdr[i].p_align : 1;
            *(size_t *)sum += (info->dlpi_phdr[i].p_memsz + align - 1) / align * align;
        }
    return 0;
}

static size_t static_tls_size(void)
{
    static size_t size;   /* the same for the process's life: computed once */
    if (!__atomic_load_n(&size, __ATOMIC_RELAXED)) {
        size_t sum = 0;
        dl_iterate_phdr(add_tls_size, &sum);
        __atomic_store_n(&size, sum + 4096, __ATOMIC_RELAXED);   /* + glibc's thread descriptor */
    }
    return size;
}

/* An exception that ends a thread started by start_new_thread goes to
 * sys.unraisablehook, as CPython's. */
static void report_thread_exception(Obj func, Obj exc)
{
    vm_report_unraisable_exc(exc, func, "Exception ignored in thread started by");
}

static void *thread_main(void *arg)
{
    int64_t serial = (int64_t)(intptr_t)arg;
    tm_thread_attach();   /* the starter made sure an index is free */
    tm_start_transaction();
    tm_become_solo_or_inevitable();   /* until the eval loop's first yield point (txstate.c) */
    vm_thread_init();
    register_ident();
    Obj *r = vm_roots(4);
    sentinel_slot = &r[3];
    r[0] = int_from_i64(serial);
    r[1] = r[0] ? dict_getitem(g_boot, r[0]) : NULL;
    if (r[1]) {
        r[2] = r[1];
        if (dict_delitem(g_boot, r[0]) < 0)
            err_clear();
        r[1] = TUPLE_ITEMS(r[2])[0];
        Obj kw = TUPLE_ITEMS(r[2])[2];
        Obj res = vm_call_tuple_dict(r[1], TUPLE_ITEMS(r[2])[1], IS_NONE(kw) ? NULL : kw);
        if (!res) {
            Obj exc = err_fetch();
            if (exc && !vm_isinstance_type(exc, E_SystemExit))
                report_thread_exception(r[1], exc);
        }
    }
    err_clear();
    sentinel_slot = NULL;
    /* Its view of the heap goes back before the sentinel is released: a
     * joiner reading what this thread built maps it in its own segment. */
    if (tm_view_worth_releasing()) {
        vm_blocking_begin();
        tm_release_view();
        vm_blocking_end();
    }
    /* Its Python code is over: the thread leaves _count() and releases its
     * sentinel (threading took it at the thread's start; Thread.join()
     * waits for it), if still held, in one step that cannot abort, so a
     * joined thread is no longer counted, as in CPython. */
    vm_tx_become_inevitable();
    __atomic_sub_fetch(&vm_live_threads, 1, __ATOMIC_ACQ_REL);
    if (r[3] && (LOCK_WORD(r[3]) & LOCK_STATE) != LOCK_FREE && lock_release_obj(&r[3]) < 0)
        err_clear();
    vm_unroots(r);
    if (vm_tx_stats_enabled)
        vm_tx_merge_stats();
    vm_thread_fini();
    tm_commit_transaction();
    tm_thread_detach();
    return NULL;
}

static Obj thread_start_new(Obj *args, size_t nargs, Obj kwnames)
{
    if (!vm_callable(args[0])) {
        err_set(E_TypeError, "first arg must be callable");
        return NULL;
    }
    if (!IS_TUPLE(args[1]) && !vm_isinstance_type(args[1], T_tuple)) {
        err_set(E_TypeError, "2nd arg must be a tuple");
        return NULL;
    }
    if (nargs > 2 && !IS_DICT(vm_unwrap(args[2]))) {
        err_set(E_TypeError, "optional 3rd arg must be a dictionary");
        return NULL;
    }
    if (__atomic_load_n(&vm_live_threads, __ATOMIC_ACQUIRE) >= TM_MAX_THREAD_INDEX - 1) {
        err_set(E_RuntimeError, "can't start new thread");
        return NULL;
    }
    Obj *r = vm_roots(2);
    Obj res = NULL;
    /* A thread started is not undone; and the serial is a C global, taken
     * only by an inevitable transaction (one at a time, never aborted). */
    vm_tx_become_inevitable();
    int64_t serial = ++boot_serial;
    r[0] = int_from_i64(serial);
    r[1] = r[0] ? tuple_pack(3, args[0], args[1], nargs > 2 ? args[2] : g_None) : NULL;
    if (!r[1] || dict_setitem(g_boot, r[0], r[1]) < 0)
        goto out;
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
    if (thread_stack_size)
        pthread_attr_setstacksize(&attr, thread_stack_size + static_tls_size());
    pthread_t tid;
    __atomic_add_fetch(&vm_live_threads, 1, __ATOMIC_ACQ_REL);
    /* The new thread blocks the asynchronous signals, so that the kernel
     * delivers them to the main thread, whose waits they end (signalmodule.c). */
    sigset_t blocked, saved;
    signals_thread_mask(&blocked);
    pthread_sigmask(SIG_BLOCK, &blocked, &saved);
    int rc = pthread_create(&tid, &attr, thread_main, (void *)(intptr_t)serial);
    pthread_sigmask(SIG_SETMASK, &saved, NULL);
    pthread_attr_destroy(&attr);
    if (rc != 0) {
        __atomic_sub_fetch(&vm_live_threads, 1, __ATOMIC_ACQ_REL);
        if (dict_delitem(g_boot, r[0]) < 0)
            err_clear();
        err_set(E_RuntimeError, "can't start new thread");
        goto out;
    }
    res = int_from_u64((unsigned long)tid);
out:
    vm_unroots(r);
    return res;
}

static Obj thread_get_ident(Obj *args, size_t nargs, Obj kwnames)
{
    return int_from_u64((unsigned long)pthread_self());
}

static Obj thread_get_native_id(Obj *args, size_t nargs, Obj kwnames)
{
    return int_from_i64((int64_t)syscall(SYS_gettid));
}

static Obj thread_count(Obj *args, size_t nargs, Obj kwnames)
{
    return int_from_i64(__atomic_load_n(&vm_live_threads, __ATOMIC_ACQUIRE) - 1);
}

/* _set_sentinel(): a new lock, free, as CPython's: threading takes it at
 * once and holds it for the thread's life (Thread._set_tstate_lock); the
 * thread releases it when it ends, after leaving _count() (thread_main),
 * and Thread.join() and is_alive() wait for or probe it. Called again, the
 * new lock replaces the old one (CPython's, for a forked child). No holding
 * of it counts in vm_ts.locks_held (LOCK_UNCOUNTED): held for the thread's
 * whole life, it would make every transaction of the thread run on past
 * its length (txstate.c). In the main thread (no thread_main) nothing
 * releases it: threading's _shutdown() does. Made inevitable: the root
 * slot it is kept in is no transactional memory. */
static Obj thread_set_sentinel(Obj *args, size_t nargs, Obj kwnames)
{
    vm_tx_become_inevitable();
    Obj lock = lock_new_obj();
    if (!lock)
        return NULL;
    LOCK_AUX(lock) = MAKE_SMALLINT(LOCK_UNCOUNTED);   /* new: no barrier */
    if (sentinel_slot)
        *sentinel_slot = lock;
    return lock;
}

static Obj thread_allocate_lock(Obj *args, size_t nargs, Obj kwnames)
{
    return lock_new_obj();
}

static Obj thread_stack_size_fn(Obj *args, size_t nargs, Obj kwnames)
{
    size_t old = thread_stack_size;
    int64_t v = 0;   /* no argument: back to the default */
    if (nargs == 1 && int_as_i64(args[0], &v) < 0)
        return NULL;
    if (v < 0) {
        err_set(E_ValueError, "size must be 0 or a positive value");
        return NULL;
    }
    if (v != 0 && v < 32768) {
        err_format(E_ValueError, "size not valid: %lld bytes", (long long)v);
        return NULL;
    }
    vm_tx_become_inevitable();   /* a C global: an aborted retry that skips this call must not keep it */
    old = thread_stack_size;
    thread_stack_size = (size_t)v;
    return int_from_u64(old);
}

/* _thread.exit() / exit_thread(): ends the calling thread quietly. */
static Obj thread_exit(Obj *args, size_t nargs, Obj kwnames)
{
    err_set_obj((Obj)E_SystemExit);
    return NULL;
}

/* _thread.interrupt_main(signum=SIGINT) */
static Obj thread_interrupt_main(Obj *args, size_t nargs, Obj kwnames)
{
    int64_t sig = SIGINT;
    if (nargs == 1 && int_as_i64(args[0], &sig) < 0)
        return NULL;
    return signals_interrupt_main(sig) < 0 ? NULL : g_None;
}

static Obj thread_daemon_threads_allowed(Obj *args, size_t nargs, Obj kwnames)
{
    return g_True;
}

/* ------------------------------------------------------------------ */
/* threading.excepthook's default                                      */
/* ------------------------------------------------------------------ */

/* _thread._ExceptHookArgs: the struct sequence (exc_type, exc_value,
 * exc_traceback, thread) threading passes to its excepthook. */
static Obj g_excepthook_args;

/* _thread._excepthook(args): threading.excepthook unless a program sets
 * its own. Ignores SystemExit; else writes "Exception in thread NAME:"
 * and the exception with its traceback, as an uncaught exception is
 * printed, on sys.stderr, or when that is None on the stream the thread
 * was created with (thread._stderr; nothing if that is None too). */
static Obj thread_excepthook(Obj *args, size_t nargs, Obj kwnames)
{
    if ((Obj)TYPE(args[0]) != g_excepthook_args) {
        err_set(E_TypeError, "_thread._excepthook argument type must be ExceptHookArgs");
        return NULL;
    }
    Obj *r = vm_roots(4);   /* the fields' tuple, the file, the name, scratch */
    Obj res = NULL;
    r[0] = vm_unwrap(args[0]);
    if (!IS_TUPLE(r[0]) || TUPLE_LEN(r[0]) != 4) {
        err_set(E_TypeError, "_thread._excepthook argument type must be ExceptHookArgs");
        goto out;
    }
    if (TUPLE_ITEMS(r[0])[0] == (Obj)E_SystemExit) {   /* ignored silently */
        res = g_None;
        goto out;
    }
    r[1] = sys_get("stderr");
    if (!r[1] || IS_NONE(r[1])) {
        if (IS_NONE(TUPLE_ITEMS(r[0])[3])) {
            res = g_None;
            goto out;
        }
        if (!(r[1] = vm_getattr_cstr(TUPLE_ITEMS(r[0])[3], "_stderr")))
            goto out;
        if (IS_NONE(r[1])) {
            res = g_None;
            goto out;
        }
    }
    r[2] = NULL;
    if (!IS_NONE(TUPLE_ITEMS(r[0])[3])) {
        if (!(r[3] = str_from_cstr("name")))
            goto out;
        r[2] = vm_getattr_opt(TUPLE_ITEMS(r[0])[3], r[3]);
        if (!r[2] && err_occurred())
            goto out;
    }
    r[2] = r[2] ? vm_str(r[2]) : str_from_format("%lu", (unsigned long)pthread_self());
    if (!r[2] || file_write_cstr(r[1], "Exception in thread ", 20) < 0 || file_write_str(r[1], r[2]) < 0 ||
        file_write_cstr(r[1], ":\n", 2) < 0)
        goto out;
    if (IS_EXCEPTION(TUPLE_ITEMS(r[0])[1])) {
        vm_print_exception_on(r[1], TUPLE_ITEMS(r[0])[1], false);
    } else {   /* a program built the args: what sys.excepthook says then */
        r[3] = str_from_format("TypeError: print_exception(): Exception expected for value, %s found\n",
                               type_name(TUPLE_ITEMS(r[0])[1]));
        if (!r[3] || file_write_str(r[1], r[3]) < 0)
            goto out;
    }
    if (file_flush(r[1]) < 0)
        goto out;
    res = g_None;
out:
    vm_unroots(r);
    return res;
}

static const MethodDef thread_functions[] = {
    {"start_new_thread", thread_start_new, METH_BARENAME | METH_ARGS(2, 3), "Start a new thread and return its identifier."},
    {"start_new", thread_start_new, METH_BARENAME | METH_ARGS(2, 3), NULL},
    {"get_ident", thread_get_ident, METH_NOARGS, "Return a non-zero integer that uniquely identifies the current thread."},
    {"get_native_id", thread_get_native_id, METH_NOARGS, "Return the native integral Thread ID of the current thread."},
    {"_count", thread_count, METH_NOARGS, NULL},
    {"_set_sentinel", thread_set_sentinel, METH_NOARGS, "Set a sentinel lock that will be released when the current thread state is finalized."},
    {"allocate_lock", thread_allocate_lock, METH_NOARGS, "Create a new lock object."},
    {"allocate", thread_allocate_lock, METH_NOARGS, NULL},
    {"stack_size", thread_stack_size_fn, METH_OLDMSG | METH_ARGS(0, 1), NULL},
    {"daemon_threads_allowed", thread_daemon_threads_allowed, METH_NOARGS, NULL},
    {"_excepthook", thread_excepthook, METH_O, "Handle uncaught Thread.run() exception."},
    {"exit", thread_exit, METH_NOARGS, "This is synonymous to ``raise SystemExit''.  It will cause the current\nthread to exit silently unless the exception is caught."},
    {"exit_thread", thread_exit, METH_NOARGS, NULL},
    {"interrupt_main", thread_interrupt_main, METH_ARGS(0, 1),
     "Simulate the arrival of the given signal in the main thread,\nwhere the corresponding signal handler will be executed.\nIf *signum* is omitted, SIGINT is assumed."},
    {NULL, NULL, 0, NULL},
};

/* ------------------------------------------------------------------ */
/* Start-up                                                            */
/* ------------------------------------------------------------------ */

static void init_types(void)
{
    T_lock = thread_make_type("_thread.lock", lock_tp_new, lock_repr, lock_methods);
    T_rlock = thread_make_type("_thread.RLock", rlock_tp_new, rlock_repr, rlock_methods);
    VM_WRITE(T_lock);
    T_lock->flags |= TPF_WEAKREFABLE;   /* as CPython's: weakref.ref(lock) (test_threading) */
    VM_WRITE(T_rlock);
    T_rlock->flags |= TPF_BASETYPE | TPF_ITER_VALUE | TPF_WEAKREFABLE;

    T_local = (TypeObj *)type_new_builtin("_thread._local", T_object, TID_INSTANCE, TPF_BASETYPE | TPF_HAS_DICT);
    VM_WRITE(T_local);
    T_local->tp_new = local_tp_new;
    T_local->tp_getattro = local_getattro;
    T_local->tp_setattro = local_setattro;
    type_ready(T_local);
}

/* Called once, at start-up, by the main thread. */
void threads_init(void)
{
    register_ident();
    tm_monitor_set_blocking_hooks(vm_blocking_begin, vm_blocking_end);
    VM_GLOBAL_ROOT(g_boot);
    VM_GLOBAL_ROOT(g_local_args);
    g_boot = dict_new();
    g_local_args = dict_new();
    if (!g_boot || !g_local_args) {
        fputs("tmpy: fatal: out of memory starting the thread support\n", stderr);
        exit(1);
    }
    init_types();
}

Obj thread_module_init(void)
{
    Obj *r = vm_roots(2);
    Obj res = NULL;
    if (!g_excepthook_args) {   /* once (a module init: inevitable) */
        static const char *const fields[] = {"exc_type", "exc_value", "exc_traceback", "thread"};
        VM_GLOBAL_ROOT(g_excepthook_args);
        if (!(g_excepthook_args = structseq_new_type("_thread", "_ExceptHookArgs", fields, 4, 4)))
            goto out;
    }
    r[0] = module_new("_thread");
    if (!r[0])
        goto out;
    module_add_functions(r[0], thread_functions);
    r[1] = float_new(TIMEOUT_MAX);
    if (!r[1] || module_add(r[0], "TIMEOUT_MAX", r[1]) < 0 || module_add(r[0], "LockType", (Obj)T_lock) < 0 ||
        module_add(r[0], "lock", (Obj)T_lock) < 0 || module_add(r[0], "RLock", (Obj)T_rlock) < 0 ||
        module_add(r[0], "_local", (Obj)T_local) < 0 || module_add(r[0], "error", (Obj)E_RuntimeError) < 0 ||
        module_add(r[0], "_ExceptHookArgs", g_excepthook_args) < 0)
        goto out;
    res = r[0];
out:
    vm_unroots(r);
    return res;
}

/* At exit: threading._shutdown() joins the non-daemon threads, if threading
 * was imported (as CPython does before the atexit callbacks). */
void threads_shutdown(void)
{
    Obj mods = sys_get("modules");
    if (!mods || !IS_DICT(vm_unwrap(mods)))
        return;
    Obj *r = vm_roots(2);
    r[0] = str_from_cstr("threading");
    r[1] = r[0] ? dict_getitem(vm_unwrap(mods), r[0]) : NULL;
    if (r[1]) {
        r[1] = vm_getattr_cstr(r[1], "_shutdown");
        if (r[1] && !vm_call0(r[1])) {
            Obj exc = err_fetch();
            if (exc) {
                fputs("Exception ignored on threading shutdown:\n", stderr);
                vm_print_exception(exc);
            }
        }
    }
    err_clear();
    vm_unroots(r);
}
