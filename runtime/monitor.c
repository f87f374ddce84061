/* Object monitors: thin locks in the header word, inflated to fat locks on
 * contention, wait/notify or count overflow (paper 002; see monitor.h).
 *
 * Thin lock word (flags, 32 bits): GC bits 0..7 are kept as they are; the
 * owner's index sits at 16..30 and the nesting count minus one at 8..15.
 * Lock is one CAS of (gc bits) -> (gc bits | me << 16); nested lock, nested
 * unlock and unlock are plain stores of the whole word by the owner (only
 * the segment's owner writes header words: under the GIL the lock word of an
 * object owned by another thread cannot change under our feet, so a
 * contender may inflate it on the owner's behalf).
 *
 * Fat locks live in a table reached by their 23-bit index (two levels:
 * lazily allocated chunks, never freed; STM: deflated ones are reused from
 * a free list). Each has a small internal spin lock
 * guarding the owner, the count, a FIFO entry queue and a FIFO wait set. The
 * queue nodes are on the blocked threads' C stacks; each thread parks on its
 * node's own futex word, so a wakeup is aimed at one thread.
 *
 * Waiting to enter is a queue, not a race: a fat unlock with a thread
 * queued hands the monitor to it (owner and count set for it) before
 * waking it, so an unlocking thread that enters again at once queues
 * behind it instead of taking the monitor back before the woken thread has
 * run (under STM, a woken thread runs only after the unlocker's
 * transaction commits). A contender for a thin lock inflates it at once
 * and queues, so the owner's next unlock finds it.
 *
 * STM build: the thin word is transactional data (written after tm_write),
 * so the thin fast paths are plain transactional code. Fat locks and
 * blocking are not transactional: every slow path becomes inevitable first
 * (an inevitable transaction never aborts, so nothing done to a fat lock is
 * ever undone by a rollback), and reads the word again once it is. So that
 * a monitor contended once does not make every later enter and exit
 * inevitable, the owner's last exit of an idle fat lock (nobody queued,
 * waiting, or notified and not yet back) deflates it: the thin free word
 * is stored and the fat lock goes to the free list. Nobody else can hold
 * on to it then: only one transaction is inevitable, so every other thread
 * that touches a fat lock is parked in one of its lists or counted. */
#define _GNU_SOURCE
#include "monitor.h"
#include "fatal.h"
#include "park.h"
#include "thread.h"
#include "tx.h"

#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>

#define THIN_ONE (1u << TM_LOCK_COUNT_SHIFT)          /* one more nesting level */
#define THIN_MAX_LEVELS 256u                           /* a thin lock holds 1..256 levels */
#define FAT_INDEX_BITS 23
#define FAT_CHUNK_BITS 10
#define FAT_CHUNK (1u << FAT_CHUNK_BITS)
#define FAT_MAX (1u << FAT_INDEX_BITS)

/* Deadlines: CLOCK_MONOTONIC nanoseconds; these two are special. */
#define DL_FOREVER TM_PARK_FOREVER
#define DL_TRY 0                   /* timeout 0: only try */

/* ---- Queue nodes (on the blocked thread's stack) ---- */

/* NODE_QUEUED while in a list; taken off by another thread, NODE_WOKEN
 * (notified, in the wait set) or NODE_GRANTED (entry queue: the unlocking
 * thread made this one the owner). */
enum { NODE_QUEUED, NODE_WOKEN, NODE_GRANTED };

typedef struct mnode {
    struct mnode *next, *prev;
    uint32_t futex;     /* 0 while parked; set to 1 (then FUTEX_WAKE) to unpark */
    int state;
    uint32_t index;     /* entry queue: the thread and how many levels it takes */
    uint64_t levels;
} mnode;

typedef struct mqueue {
    mnode *head, *tail;
} mqueue;

static void q_push_tail(mqueue *q, mnode *n)
{
    n->next = NULL;
    n->prev = q->tail;
    if (q->tail)
        q->tail->next = n;
    else
        q->head = n;
    q->tail = n;
}

static void q_remove(mqueue *q, mnode *n)
{
    if (n->prev)
        n->prev->next = n->next;
    else
        q->head = n->next;
    if (n->next)
        n->next->prev = n->prev;
    else
        q->tail = n->prev;
    n->next = n->prev = NULL;
}

/* ---- Fat locks ---- */

typedef struct fat_lock {
    uint32_t lock;      /* internal spin lock: 0 free, 1 taken */
    uint32_t owner;     /* thread index, 0 if unlocked */
    uint64_t count;     /* nesting levels (not minus one) */
    mqueue entry;       /* threads waiting to own the monitor */
    mqueue waiting;     /* threads in wait() */
    uint32_t woken;     /* threads notified out of `waiting` that have not yet queued to enter */
    uint32_t index;     /* its own index in the table */
    struct fat_lock *next_free;   /* STM: deflated, on the free list */
} __attribute__((aligned(64))) fat_lock;

static fat_lock *fat_chunks[FAT_MAX / FAT_CHUNK];
static uint32_t fat_next = 0;
static fat_lock *fat_free_list;   /* under fat_alloc_lock */
static pthread_mutex_t fat_alloc_lock = PTHREAD_MUTEX_INITIALIZER;

static uint64_t stat_inflations, stat_contended, stat_fat_locks, stat_deflations;

static inline void stat_add(uint64_t *c) { __atomic_fetch_add(c, 1, __ATOMIC_RELAXED); }

static fat_lock *fat_new(uint32_t *index_out)
{
    pthread_mutex_lock(&fat_alloc_lock);
    fat_lock *f = fat_free_list;
    if (f) {
        fat_free_list = f->next_free;
        f->next_free = NULL;
        pthread_mutex_unlock(&fat_alloc_lock);
        *index_out = f->index;
        return f;
    }
    uint32_t idx = fat_next;
    if (idx >= FAT_MAX)
        tm_fatal("out of fat locks: %u monitors inflated", idx);
    fat_lock *chunk = fat_chunks[idx >> FAT_CHUNK_BITS];
    if (!chunk) {
        chunk = aligned_alloc(64, FAT_CHUNK * sizeof(fat_lock));
        if (!chunk)
            tm_fatal("out of memory for fat locks");
        for (uint32_t i = 0; i < FAT_CHUNK; i++)
            chunk[i] = (fat_lock){.index = (idx & ~(FAT_CHUNK - 1)) + i};
        __atomic_store_n(&fat_chunks[idx >> FAT_CHUNK_BITS], chunk, __ATOMIC_RELEASE);
    }
    fat_next = idx + 1;
    pthread_mutex_unlock(&fat_alloc_lock);
    stat_add(&stat_fat_locks);
    *index_out = idx;
    return &chunk[idx & (FAT_CHUNK - 1)];
}

#if TM_STM
/* A deflated fat lock (unowned, nobody queued, waiting or woken) goes back
 * for the next inflation. */
static void fat_free(fat_lock *f)
{
    pthread_mutex_lock(&fat_alloc_lock);
    f->next_free = fat_free_list;
    fat_free_list = f;
    pthread_mutex_unlock(&fat_alloc_lock);
}
#endif

static inline fat_lock *fat_of(uint32_t w)
{
    uint32_t idx = (w & TM_LOCK_FIELD_MASK & ~TM_LOCK_FAT_BIT) >> TM_LOCK_COUNT_SHIFT;
    fat_lock *chunk = __atomic_load_n(&fat_chunks[idx >> FAT_CHUNK_BITS], __ATOMIC_ACQUIRE);
    TM_ASSERT(chunk != NULL);
    return &chunk[idx & (FAT_CHUNK - 1)];
}

/* The owner changes from 0 to a thread, or from the owner to 0 or to a
 * queued thread it hands over to, always under the internal lock; it changes
 * from the calling thread's index only by that thread's doing. So the owner
 * reads its own index, and then its count, without the lock (nested enter
 * and exit of a fat lock take no lock); only the owner reads or writes the
 * count (a handoff sets it, under the lock, for the thread it wakes). */
static inline uint32_t owner_get(fat_lock *f) { return __atomic_load_n(&f->owner, __ATOMIC_RELAXED); }
static inline void owner_set(fat_lock *f, uint32_t v) { __atomic_store_n(&f->owner, v, __ATOMIC_RELAXED); }

static inline void fat_lock_internal(fat_lock *f)
{
    for (unsigned spins = 0;; spins++) {
        if (!__atomic_load_n(&f->lock, __ATOMIC_RELAXED) && !__atomic_exchange_n(&f->lock, 1, __ATOMIC_ACQUIRE))
            return;
        if (spins < 100)
            __builtin_ia32_pause();
        else
            sched_yield();
    }
}

static inline void fat_unlock_internal(fat_lock *f) { __atomic_store_n(&f->lock, 0, __ATOMIC_RELEASE); }

/* ---- Blocking hooks ---- */

static void default_begin(void) { tm_commit_transaction(); }

static void default_end(void)
{
    /* STM: tm_start_transaction() sets a jump buffer in this frame, dead once
     * we return; an inevitable transaction never jumps back to it. */
    tm_start_transaction();
    tm_become_inevitable();
}

static void (*blocking_begin)(void) = default_begin;
static void (*blocking_end)(void) = default_end;

void tm_monitor_set_blocking_hooks(void (*begin)(void), void (*end)(void))
{
    blocking_begin = begin ? begin : default_begin;
    blocking_end = end ? end : default_end;
}

/* ---- Parking (park.c) ---- */

static int64_t deadline_of(int64_t timeout_ns)
{
    if (timeout_ns < 0)
        return DL_FOREVER;
    if (timeout_ns == 0)
        return DL_TRY;
    int64_t now = tm_now_ns();
    return timeout_ns > DL_FOREVER - now ? DL_FOREVER : now + timeout_ns;
}

static bool deadline_passed(int64_t deadline)
{
    return deadline != DL_FOREVER && (deadline == DL_TRY || tm_now_ns() >= deadline);
}

static void unpark(mnode *n)
{
    tm_unpark(&n->futex);
}

/* Hand the segment back, sleep until n->futex is set or the deadline passes
 * (DL_TRY: at once) or, if interruptible, an interrupt (park.h), take the
 * segment again. Every object may have moved: callers touch no object they
 * have not rooted (a fat lock and n do not move). */
static void park(mnode *n, int64_t deadline, bool interruptible)
{
    blocking_begin();
    /* Forever: only a running thread's exit or notify (or an interrupt,
     * whose handler then waits for a segment) ends it. */
    bool passive = deadline == DL_FOREVER;
    if (passive)
        tm_thread_passive_begin();
    if (deadline != DL_TRY)
        tm_park(&n->futex, deadline, interruptible);
    if (passive)
        tm_thread_passive_end();
    blocking_end();
}

/* ---- Header word access ---- */

static inline uint32_t word_load(object_t *o)
{
    tm_read(o);
    return *(volatile uint32_t __seg_gs *)&o->h.flags;
}

/* Writes to the word: the STM half of the write barrier first (the GC half
 * does not apply: no reference is stored). Read the word after this. */
static inline void word_prepare_store(object_t *o)
{
#if TM_STM
    if (o->h.flags & TM_GCFLAG_WRITE_BARRIER)
        tm_write_lock_word_slowpath(o);
#else
    (void)o;
#endif
}

static inline void word_store(object_t *o, uint32_t w)
{
    *(volatile uint32_t __seg_gs *)&o->h.flags = w;
}

static inline bool word_cas(object_t *o, uint32_t expected, uint32_t desired)
{
    uint32_t prev;
    __asm__ __volatile__("lock cmpxchgl %2, %%gs:(%3)"
                         : "=a"(prev)
                         : "0"(expected), "r"(desired), "r"((uintptr_t)o)
                         : "memory", "cc");
    return prev == expected;
}

static inline uint32_t my_bits(void) { return (uint32_t)tm_self.index << TM_LOCK_OWNER_SHIFT; }

/* Slow paths run inevitable under STM (fat locks are not transactional). */
static inline void slow_path_begin(void)
{
#if TM_STM
    tm_become_inevitable();
#endif
}

/* The same, then o's word read again for a store. */
static inline uint32_t slow_path_word(object_t *o)
{
    slow_path_begin();
    word_prepare_store(o);
    return word_load(o);
}

/* Whether w is a thin lock held by the calling thread. */
static inline bool thin_owned(uint32_t w)
{
    uint32_t me = my_bits();
    return me != 0 && (w & (TM_LOCK_FAT_BIT | TM_LOCK_OWNER_MASK)) == me;
}

static inline void fat_give(fat_lock *f, uint32_t owner, uint64_t count)
{
    owner_set(f, owner);
    f->count = count;
}

/* Whether the calling thread owns f (reads only what the owner wrote). */
static inline bool fat_owned(fat_lock *f) { return tm_self.index != 0 && owner_get(f) == tm_self.index; }

/* Make o's thin lock (word w, just read) fat with this owner and count. */
static fat_lock *inflate(object_t *o, uint32_t w, uint32_t owner, uint64_t count)
{
    uint32_t idx;
    fat_lock *f = fat_new(&idx);
    fat_give(f, owner, count);
    word_store(o, (w & TM_GCFLAG_MASK) | TM_LOCK_FAT_BIT | (idx << TM_LOCK_COUNT_SHIFT));
    stat_add(&stat_inflations);
    return f;
}

static inline uint32_t thin_owner(uint32_t w) { return (w & TM_LOCK_OWNER_MASK) >> TM_LOCK_OWNER_SHIFT; }
static inline uint32_t thin_levels(uint32_t w) { return ((w & TM_LOCK_COUNT_MASK) >> TM_LOCK_COUNT_SHIFT) + 1; }

/* With f's internal lock: hand the monitor to the first thread queued to
 * enter and wake it, or let it go if nobody is queued. */
static void fat_release_locked(fat_lock *f)
{
    mnode *n = f->entry.head;
    if (!n) {
        fat_give(f, 0, 0);
        return;
    }
    fat_give(f, n->index, n->levels);
    n->state = NODE_GRANTED;
    q_remove(&f->entry, n);
    unpark(n);
}

/* With f's internal lock: take the monitor for n if nobody owns it. */
static bool fat_take(fat_lock *f, const mnode *n)
{
    if (owner_get(f) != 0)
        return false;
    fat_give(f, n->index, n->levels);
    return true;
}

/* Take a fat lock `levels` times, waiting until the deadline (or, if
 * interruptible, an interrupt of the target thread: park.h). Returns 1 when
 * taken, 0 at the deadline, TM_MONITOR_INTERRUPTED. The object is not
 * touched again once the fat lock is known, so it needs no root. */
static int fat_enter(fat_lock *f, uint64_t levels, int64_t deadline, bool counted, bool interruptible)
{
    if (fat_owned(f)) {
        f->count += levels;      /* ours: nobody else writes owner or count */
        return 1;
    }
    mnode n = {.index = tm_self.index, .levels = levels};
    fat_lock_internal(f);
    bool got = fat_take(f, &n);
    bool interrupted = false;
    if (!got && !counted)
        stat_add(&stat_contended);
    if (!got && !deadline_passed(deadline)) {
        uint64_t t0 = tm_wait_begin();   /* fairness statistics (tx.h) */
        n.state = NODE_QUEUED;
        q_push_tail(&f->entry, &n);
        /* Parks until an unlock hands the monitor over, or the deadline or
         * an interrupt; a spurious wakeup parks again. */
        while (n.state == NODE_QUEUED && !deadline_passed(deadline) && !(interruptible && tm_interrupted())) {
            n.futex = 0;
            fat_unlock_internal(f);
            park(&n, deadline, interruptible);
            fat_lock_internal(f);
        }
        got = n.state == NODE_GRANTED;
        if (!got) {
            q_remove(&f->entry, &n);
            interrupted = interruptible && tm_interrupted();
        }
        tm_wait_end(TM_WAIT_MONITOR, t0);
    }
    fat_unlock_internal(f);
    return got ? 1 : interrupted ? TM_MONITOR_INTERRUPTED : 0;
}

/* Enter `levels` times (>= 1), waiting until the deadline (or an
 * interrupt, if interruptible). Returns as fat_enter does. */
static int enter_slow(object_t *o, uint64_t levels, int64_t deadline, bool interruptible)
{
    uint32_t me = my_bits();
    TM_ASSERT(me != 0);
    bool counted = false;
    for (;;) {
        word_prepare_store(o);
        uint32_t w = word_load(o);
        if (w & TM_LOCK_FAT_BIT) {
            w = slow_path_word(o);
            if (!(w & TM_LOCK_FAT_BIT))   /* deflated meanwhile (STM) */
                continue;
            return fat_enter(fat_of(w), levels, deadline, counted, interruptible);
        }
        uint32_t owner = w & TM_LOCK_OWNER_MASK;
        if (owner == 0) {
            uint32_t low = w & TM_GCFLAG_MASK;
            if (levels <= THIN_MAX_LEVELS) {
                if (word_cas(o, low, low | me | (uint32_t)((levels - 1) << TM_LOCK_COUNT_SHIFT)))
                    return true;
                continue;
            }
            w = slow_path_word(o);
            if (w & TM_LOCK_FIELD_MASK)
                continue;
            inflate(o, w, tm_self.index, levels);
            return true;
        }
        if (owner == me) {
            uint64_t total = thin_levels(w) + levels;
            if (total <= THIN_MAX_LEVELS) {
                word_store(o, w + (uint32_t)(levels << TM_LOCK_COUNT_SHIFT));
                return true;
            }
            w = slow_path_word(o);
            if ((w & (TM_LOCK_FAT_BIT | TM_LOCK_OWNER_MASK)) != me)
                continue;
            inflate(o, w, tm_self.index, thin_levels(w) + levels);
            return true;
        }
        /* Another thread owns the thin lock. */
        if (!counted) {
            stat_add(&stat_contended);
            counted = true;
        }
        if (deadline_passed(deadline))   /* DL_TRY too */
            return 0;
        if (interruptible && tm_interrupted())
            return TM_MONITOR_INTERRUPTED;
        /* Inflate on the owner's behalf and queue, so that its unlock hands
         * the monitor over (GIL: it cannot write the word while we own the
         * segment; STM: we are inevitable, and a transaction of the owner's
         * that wrote the word aborts). It finds the fat lock when it unlocks. */
        w = slow_path_word(o);
        if ((w & TM_LOCK_FAT_BIT) || (w & TM_LOCK_OWNER_MASK) == 0 || (w & TM_LOCK_OWNER_MASK) == me)
            continue;
        fat_lock *f = inflate(o, w, thin_owner(w), thin_levels(w));
        return fat_enter(f, levels, deadline, counted, interruptible);
    }
}

void tm_monitor_enter(object_t *o)
{
    uint32_t me = my_bits();
    word_prepare_store(o);
    uint32_t w = word_load(o);
    if ((w & TM_LOCK_FIELD_MASK) == 0 && word_cas(o, w, w | me))
        return;
    /* Nested: thin, ours, count below 255. */
    if (((w ^ me) & TM_LOCK_FIELD_MASK) < TM_LOCK_COUNT_MASK) {
        word_store(o, w + THIN_ONE);
        return;
    }
    enter_slow(o, 1, DL_FOREVER, false);
}

/* A free lock taken at once; otherwise enter_slow until the timeout.
 * Returns as fat_enter does. */
static int enter_with_timeout(object_t *o, int64_t timeout_ns, bool interruptible)
{
    uint32_t me = my_bits();
    word_prepare_store(o);
    uint32_t w = word_load(o);
    if ((w & TM_LOCK_FIELD_MASK) == 0 && word_cas(o, w, w | me))
        return 1;
    return enter_slow(o, 1, deadline_of(timeout_ns), interruptible);
}

bool tm_monitor_enter_timed(object_t *o, int64_t timeout_ns)
{
    return enter_with_timeout(o, timeout_ns, false) == 1;
}

int tm_monitor_enter_interruptible(object_t *o, int64_t timeout_ns)
{
    return enter_with_timeout(o, timeout_ns, true);
}

/* STM, with f's internal lock, the caller inevitable, owning f at its last
 * level: whether nobody else holds on to f. Every thread that touches a fat
 * lock is inevitable, and only one transaction is, so the others are
 * parked: in the entry queue, in the wait set, or notified out of it and
 * not yet back (woken). */
static inline bool fat_idle(const fat_lock *f)
{
    return !f->entry.head && !f->waiting.head && !f->woken;
}

/* Fat, or not ours. */
static __attribute__((noinline)) bool exit_slow(object_t *o, uint32_t w)
{
    if (!(w & TM_LOCK_FAT_BIT))
        return false;
    slow_path_begin();
    w = word_load(o);   /* STM: read again now that no other transaction can change it */
    if (!(w & TM_LOCK_FAT_BIT))
        return tm_monitor_exit(o);
    fat_lock *f = fat_of(w);
    if (!fat_owned(f))
        return false;
    if (f->count > 1) {
        f->count--;
        return true;
    }
#if TM_STM
    /* Deflate an idle fat lock back to thin: its next uncontended enter
     * and exit are transactional writes of the word again, not inevitable
     * slow paths. The word's write lock first (it may park; nobody waits
     * for f's internal lock meanwhile: they would have to be inevitable). */
    word_prepare_store(o);
    fat_lock_internal(f);
    if (fat_idle(f)) {
        word_store(o, word_load(o) & TM_GCFLAG_MASK);
        fat_give(f, 0, 0);
        fat_unlock_internal(f);
        fat_free(f);
        stat_add(&stat_deflations);
        return true;
    }
#else
    fat_lock_internal(f);
#endif
    fat_release_locked(f);
    fat_unlock_internal(f);
    return true;
}

bool tm_monitor_exit(object_t *o)
{
    uint32_t me = my_bits();
    uint32_t w = word_load(o);
    uint32_t x = (w ^ me) & TM_LOCK_FIELD_MASK;
    if (__builtin_expect(x <= TM_LOCK_COUNT_MASK && me != 0, 1)) {
        /* Thin and ours: the last level clears the field, else one less. */
#if TM_STM
        word_prepare_store(o);
        w = word_load(o);
#endif
        word_store(o, x == 0 ? (w & TM_GCFLAG_MASK) : w - THIN_ONE);
        return true;
    }
    return exit_slow(o, w);
}

uint64_t tm_monitor_count(object_t *o)
{
    uint32_t w = word_load(o);
    if (!(w & TM_LOCK_FAT_BIT))
        return thin_owned(w) ? thin_levels(w) : 0;
    fat_lock *f = fat_of(w);
    return fat_owned(f) ? f->count : 0;
}

unsigned tm_monitor_owner(object_t *o)
{
    uint32_t w = word_load(o);
    if (!(w & TM_LOCK_FAT_BIT))
        return thin_owner(w);
    return owner_get(fat_of(w));
}

uint64_t tm_monitor_exit_all(object_t *o)
{
    uint32_t w = word_load(o);
    if (!(w & TM_LOCK_FAT_BIT)) {
        if (!thin_owned(w))
            return 0;
        word_prepare_store(o);
        w = word_load(o);
        word_store(o, w & TM_GCFLAG_MASK);
        return thin_levels(w);
    }
    slow_path_begin();
    w = word_load(o);   /* STM: read again now that no other transaction can change it */
    if (!(w & TM_LOCK_FAT_BIT))
        return tm_monitor_exit_all(o);
    fat_lock *f = fat_of(w);
    fat_lock_internal(f);
    uint64_t c = 0;
    if (fat_owned(f)) {
        c = f->count;
        fat_release_locked(f);
    }
    fat_unlock_internal(f);
    return c;
}

void tm_monitor_enter_count(object_t *o, uint64_t count)
{
    if (count)
        enter_slow(o, count, DL_FOREVER, false);
}

int tm_monitor_wait(object_t *o, int64_t timeout_ns)
{
    int64_t deadline = deadline_of(timeout_ns);
    uint32_t w = word_load(o);
    if (!(w & TM_LOCK_FAT_BIT) && !thin_owned(w))
        return TM_MONITOR_NOT_OWNER;
    w = slow_path_word(o);
    fat_lock *f;
    if (w & TM_LOCK_FAT_BIT)
        f = fat_of(w);
    else if (thin_owned(w))
        f = inflate(o, w, tm_self.index, thin_levels(w));
    else
        return TM_MONITOR_NOT_OWNER;
    fat_lock_internal(f);
    if (!fat_owned(f)) {
        fat_unlock_internal(f);
        return TM_MONITOR_NOT_OWNER;
    }
    uint64_t saved = f->count;
    mnode n = {.state = NODE_QUEUED};
    q_push_tail(&f->waiting, &n);
    fat_release_locked(f);
    fat_unlock_internal(f);

    park(&n, deadline, true);   /* o is not touched again: no root */

    fat_lock_internal(f);
    int result = n.state == NODE_WOKEN ? TM_MONITOR_NOTIFIED
               : tm_interrupted()    ? TM_MONITOR_INTERRUPTED
                                     : TM_MONITOR_TIMED_OUT;
    if (result != TM_MONITOR_NOTIFIED)
        q_remove(&f->waiting, &n);
    else
        f->woken--;   /* inevitable again: nobody can deflate f until we are back in it */
    fat_unlock_internal(f);
    fat_enter(f, saved, DL_FOREVER, true, false);
    return result;
}

int64_t tm_monitor_notify(object_t *o, uint64_t n)
{
    uint32_t w = word_load(o);
    if (!(w & TM_LOCK_FAT_BIT))
        return thin_owned(w) ? 0 : -1;    /* a thin lock has no waiters (wait inflates) */
    slow_path_begin();
    w = word_load(o);   /* STM: read again now that no other transaction can change it */
    if (!(w & TM_LOCK_FAT_BIT))
        return tm_monitor_notify(o, n);
    fat_lock *f = fat_of(w);
    fat_lock_internal(f);
    if (!fat_owned(f)) {
        fat_unlock_internal(f);
        return -1;
    }
    int64_t woken = 0;
    while ((uint64_t)woken < n && f->waiting.head) {
        mnode *m = f->waiting.head;
        q_remove(&f->waiting, m);
        m->state = NODE_WOKEN;
        f->woken++;
        unpark(m);
        woken++;
    }
    fat_unlock_internal(f);
    return woken;
}

void tm_monitor_get_stats(tm_monitor_stats *out)
{
    out->inflations = __atomic_load_n(&stat_inflations, __ATOMIC_RELAXED);
    out->contended_enters = __atomic_load_n(&stat_contended, __ATOMIC_RELAXED);
    out->fat_locks = __atomic_load_n(&stat_fat_locks, __ATOMIC_RELAXED);
    out->deflations = __atomic_load_n(&stat_deflations, __ATOMIC_RELAXED);
}

/* fork() (fork.c): in the child only the calling thread exists; whoever
 * else held o's monitor, queued for it or waited in it is gone. The monitor
 * is made free with nobody queued or waiting (the caller's own levels go
 * too, as a lock reinitialised after a fork is unlocked). A fat lock stays
 * fat, emptied. STM: the caller's transaction is inevitable (the child's
 * only thread). */
void tm_monitor_fork_reset(object_t *o)
{
    uint32_t w = word_load(o);
    if (w & TM_LOCK_FAT_BIT) {
        fat_lock *f = fat_of(w);
        f->lock = 0;
        owner_set(f, 0);
        f->count = 0;
        f->entry = (mqueue){0};
        f->waiting = (mqueue){0};
        f->woken = 0;
        return;
    }
    if (!(w & TM_LOCK_FIELD_MASK))
        return;
#if TM_STM
    word_prepare_store(o);
    w = word_load(o);
#endif
    word_store(o, w & TM_GCFLAG_MASK);
}
