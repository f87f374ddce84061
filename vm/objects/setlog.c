/* STM: adds and discards of a big shared set that commit blind
 * (docs/ARCHITECTURE.md, "Blind adds and discards of a shared set").
 *
 * Two threads adding different elements to one big set did not conflict
 * (slots and counter stripes are conflict units: set.c), but each add
 * wrote a key slot and a hash slot, so every page of the table a thread
 * touched was privatised in its segment (an mmap and a copy: most of a
 * shared-set program's time at 2 threads). So `s.add(x)`, `s.discard(x)`
 * and `s.remove(x)` on a big table (STRIPED_MIN slots and up) by a
 * transaction that can abort probe as usual (reading each slot: those
 * reads are its conflicts) but write nothing of the set: the slot chosen,
 * the key and the hash go to the transaction's log. The log is C memory
 * (thread-local): a log of GC objects survived every commit's minor
 * collection and its garbage brought major collections on 2-3x as often.
 * What the GC must see is in one small array in the root slot
 * ROOT_SET_OPS: the sets, their tables and the keys that are not
 * immediates (an entry names them by index). The root slot also says
 * whether the C log is this transaction's: an abort puts it back to NULL,
 * and a log started with the slot NULL starts empty. The transaction's own
 * later probes see its pending slots through a map from (set, slot) to the
 * newest entry (pmap, thread-local, valid for one log: its generation).
 * At commit, with the world stopped (set_log_merge_check, _apply), the
 * entries are stored into the committed table in log order and this
 * segment's stripe takes the counts, through tm_commit_write_items: the
 * merge may write in place, so no page is privatised. Whoever read a slot
 * the merge writes (another transaction that chose the same slot) is
 * aborted by the ordinary read check, as if the store had been plain; the
 * apply checks each slot holds what the probe saw (fatal otherwise).
 *
 * Program order: every other read of the set goes through SETOBJ(), which
 * first turns this transaction's pending entries for that set into plain
 * stores (set_flush_own_slow, behind the thread-local vm_set_logging; none
 * in a solo transaction). That turn writes slots that the probe chose and
 * the counts the allowance allowed, so it never allocates and never
 * resizes: an add into a never-used slot is logged only while this
 * segment's stripe has fill allowance left for it and the pending ones
 * (else the plain path folds). A key whose comparison needs Python code
 * (__eq__), a table made by this transaction, a full log (LOG_MAX) or an
 * inevitable or solo transaction: plain stores. A transaction turns its
 * log into plain stores just before it becomes inevitable, an inevitable
 * one at commit, a thread that ends before its roots go. */
#include "objects.h"
#include "containers.h"
#include "settable.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

uint64_t vm_set_ops_blind;   /* entries merged blind (statistics: tm.stats()['set_ops_blind']) */

#if TM_STM
#define LOG_SETS 4                 /* sets one transaction logs into */
#define LOG_MAX 2048               /* entries in a transaction's log; then plain */
#define KEY_CHUNK 64               /* heap keys in a chunk (a small ArrayObj) */
/* The GC's part, in the root slot: per set, the set and its table; then
 * the chunks of heap keys. */
enum { H_SET = 0, H_TABLE = H_SET + LOG_SETS, H_KEYS = H_TABLE + LOG_SETS, H_LEN = H_KEYS + LOG_MAX / KEY_CHUNK };
enum { K_ADD_UNUSED, K_ADD_DUMMY, K_DISCARD };

struct sentry {
    uint64_t slot;
    int64_t hash;
    uintptr_t key;     /* an immediate, or (heap) the index of the key in the root's chunks */
    uint8_t kind, set;
    bool heap, dead;   /* dead: stored plainly already */
};
/* The running transaction's log (valid while the root slot is set). */
static __thread struct sentry *clog;   /* LOG_MAX entries, made at first use, freed at the thread's end */
static __thread int64_t clog_n, nheap;
static __thread int64_t set_n[LOG_SETS];      /* entries not yet stored plainly */
static __thread int64_t set_fill[LOG_SETS];   /* of them, adds into never-used slots */
static __thread int64_t set_first[LOG_SETS];  /* the first of them */

__thread bool vm_set_logging;        /* this thread's log may hold sets (SETOBJ() looks) */
static __thread bool logs_plain;     /* the retry of a failed merge stores plainly */
/* TMPY_TEST_SET_SKIP_FLUSH=1 (tests only): SETOBJ() does not turn the
 * transaction's pending entries into plain stores, so a thread's own reads
 * miss its adds and discards: tests/py/set_ops_threads.py must then fail. */
static bool skip_flush;

/* (set, slot) -> the newest entry for it, for the log of generation pgen. */
#define PMAP_SIZE (2 * LOG_MAX)
struct pslot {
    uint64_t key;    /* slot * LOG_SETS + set + 1 */
    uint32_t gen;
    int32_t entry;
};
static __thread struct pslot pmap[PMAP_SIZE];
static __thread uint32_t pgen;

static inline Obj slog(void) { return vm_ts.roots ? vm_ts.roots[ROOT_SET_OPS] : NULL; }
static inline Obj __seg_gs *hdr(Obj log) { return ((ArrayObj *)log)->items; }   /* no barrier: the log is this transaction's */
static inline Obj entry_key(Obj log, const struct sentry *e)
{
    if (!e->heap)
        return (Obj)e->key;
    return ((ArrayObj *)hdr(log)[H_KEYS + e->key / KEY_CHUNK])->items[e->key % KEY_CHUNK];   /* no barrier: as hdr */
}

static __attribute__((noreturn, cold)) void log_broken(const char *what)
{
    fprintf(stderr, "tmpy: fatal: set log: %s\n", what);
    abort();
}

static inline uint32_t pmap_index(uint64_t key)
{
    return (uint32_t)((key * 0x9E3779B97F4A7C15ull) >> 52) & (PMAP_SIZE - 1);
}
static int32_t pmap_get(int j, uint64_t slot)
{
    uint64_t key = slot * LOG_SETS + (uint64_t)j + 1;
    for (uint32_t i = pmap_index(key);; i = (i + 1) & (PMAP_SIZE - 1)) {
        if (pmap[i].gen != pgen)
            return -1;
        if (pmap[i].key == key)
            return pmap[i].entry;
    }
}
static void pmap_put(int j, uint64_t slot, int32_t k)
{
    uint64_t key = slot * LOG_SETS + (uint64_t)j + 1;
    for (uint32_t i = pmap_index(key);; i = (i + 1) & (PMAP_SIZE - 1)) {
        if (pmap[i].gen != pgen) {
            pmap[i] = (struct pslot){key, pgen, k};
            return;
        }
        if (pmap[i].key == key) {
            pmap[i].entry = k;
            return;
        }
    }
}

static int log_set_index(Obj log, Obj so)
{
    for (int j = 0; j < LOG_SETS; j++)
        if (hdr(log)[H_SET + j] == so)
            return j;
    return -1;
}

/* Store set j's entries plainly, in log order, and take j out of the log.
 * Never allocates. */
static void log_flush_set(Obj log, int j)
{
    Obj so = hdr(log)[H_SET + j], table = hdr(log)[H_TABLE + j];
    int64_t left = set_n[j];
    VM_WRITE(log);   /* made by this transaction */
    hdr(log)[H_SET + j] = NULL;   /* first: the casts below come back to the log */
    hdr(log)[H_TABLE + j] = NULL;
    set_n[j] = set_fill[j] = 0;
    bool any = false;
    for (int i = 0; i < LOG_SETS; i++)
        any |= hdr(log)[H_SET + i] != NULL;
    vm_set_logging = any;
    if (!left)
        return;
    if (SETOBJ_NOFLUSH(so)->table != table)
        log_broken("a set's table changed under its pending entries");
    Obj hashobj = t_hashobj(table), dummy = set_dummy_key();
    int64_t du = 0, df = 0;
    for (int64_t k = set_first[j]; k < clog_n && left; k++) {
        struct sentry *e = &clog[k];
        if (e->dead || e->set != j)
            continue;
        e->dead = true;
        VM_WRITE_ITEM(table, e->slot);
        VM_WRITE_ITEMS(hashobj, e->slot * 8, 8);
        t_keys_nb(table)[e->slot] = e->kind == K_DISCARD ? dummy : entry_key(log, e);
        t_hashes_nb(table)[e->slot] = e->kind == K_DISCARD ? -1 : e->hash;
        du += e->kind == K_DISCARD ? -1 : 1;
        df += e->kind == K_ADD_UNUSED;
        left--;
    }
    if (du || df) {
        int ms = my_stripe();
        int64_t __seg_gs *st = t_stripe(table, ms);
        tm_read_at((uintptr_t)st);
        VM_WRITE_ITEMS(hashobj, stripe_offset(t_size(table), ms), 24);
        st[ST_USED] += du;
        st[ST_FILL] += df;
    }
}

/* SETOBJ(so), this transaction having logged entries: those for so become
 * plain stores now (program order). */
void set_flush_own_slow(Obj so)
{
    Obj log = slog();
    if (!log) {
        vm_set_logging = false;
        return;
    }
    int j = log_set_index(log, so);
    if (j >= 0 && !skip_flush)
        log_flush_set(log, j);
}

/* Every set's entries into plain stores (before becoming inevitable, an
 * inevitable commit, a thread's end). */
void set_flush_pending(void)
{
    Obj log = slog();
    if (log)
        for (int j = 0; j < LOG_SETS; j++)
            if (hdr(log)[H_SET + j])
                log_flush_set(log, j);
}

void set_log_thread_end(void)
{
    set_flush_pending();
    free(clog);
    clog = NULL;
}

/* May this operation on *sp be logged? Then its set's index in the log
 * (claimed if new), with room for one more entry and, if heap_key, for
 * one more heap key: 1; 0: not taken; -1 error. May allocate (*sp and *kp
 * are root slots). */
static int log_prepare(Obj *sp, bool heap_key, int *jp)
{
    if (!tm_read_version() || logs_plain)
        return 0;   /* solo (read version 0): stores in place */
    SetObj *s = SETOBJ_NOFLUSH(*sp);
    Obj table = s->table;
    if (s->frozen || !table || !t_striped(table) || tm_is_inevitable() || tm_created_here((object_t *)table))
        return 0;
    Obj log = slog();
    if (log && clog_n >= LOG_MAX)
        return 0;
    if (!clog && !(clog = vm_malloc_kept(LOG_MAX * sizeof *clog)))   /* kept: an abort must not free it (txmalloc.c) */
        return 0;
    if (!log || (heap_key && nheap % KEY_CHUNK == 0 && !hdr(log)[H_KEYS + nheap / KEY_CHUNK])) {
        if (!log) {
            Obj h = array_new(H_LEN);   /* *sp and *kp are root slots: nothing else to keep */
            if (!h)
                return -1;
            vm_ts.roots[ROOT_SET_OPS] = h;
            clog_n = nheap = 0;   /* a new log: whatever the C part held was an aborted transaction's */
            for (int j = 0; j < LOG_SETS; j++)
                set_n[j] = set_fill[j] = 0;
            if (++pgen == 0) {   /* after 2^32 logs: no stale generation may match */
                memset(pmap, 0, sizeof pmap);
                pgen = 1;
            }
        }
        if (heap_key && nheap % KEY_CHUNK == 0) {
            Obj chunk = array_new(KEY_CHUNK);
            if (!chunk)
                return -1;
            log = slog();
            VM_WRITE(log);
            hdr(log)[H_KEYS + nheap / KEY_CHUNK] = chunk;
        }
        log = slog();
        table = SETOBJ_NOFLUSH(*sp)->table;   /* a collection may have moved objects */
    }
    int j = log_set_index(log, *sp);
    if (j >= 0) {
        if (hdr(log)[H_TABLE + j] != table)
            log_broken("a logged set's table changed without a flush");
    } else {
        for (j = 0; j < LOG_SETS && hdr(log)[H_SET + j]; j++)
            ;
        if (j == LOG_SETS)
            return 0;   /* four sets logged already */
        VM_WRITE(log);
        hdr(log)[H_SET + j] = *sp;
        hdr(log)[H_TABLE + j] = table;
        vm_set_logging = true;
    }
    *jp = j;
    return 1;
}

/* Probe set j for key as this transaction sees it (its pending entries
 * over the table): the slot holding it (*found), else where an add would
 * go (*at, *kind). 0, or -2 when a comparison needs Python code. */
static int log_probe(Obj log, int j, Obj so, Obj key, int64_t hash, bool *found, uint64_t *at, int *kind)
{
    SetObj *s = SETOBJ_NOFLUSH(so);
    Obj table = s->table;
    uint64_t mask = (uint64_t)s->mask;
    uint8_t rv = tm_read_version();
    bool pending = set_n[j] > 0;
    Obj dummy = set_dummy_key();
    Obj __seg_gs *keys = t_keys_nb(table);
    int64_t __seg_gs *hashes = t_hashes_nb(table);
    uint64_t perturb = (uint64_t)hash;
    uint64_t i = (uint64_t)hash & mask;
    int64_t freeslot = -1;
    for (;;) {
        uint64_t p = i;
        int probes = (i + LINEAR_PROBES <= mask) ? LINEAR_PROBES : 0;
        do {
            t_read_slot(table, p, rv);
            Obj ek = keys[p];
            int64_t eh = hashes[p];
            int32_t k = pending ? pmap_get(j, p) : -1;
            if (k >= 0 && !clog[k].dead) {
                bool del = clog[k].kind == K_DISCARD;
                ek = del ? dummy : entry_key(log, &clog[k]);
                eh = del ? -1 : clog[k].hash;
            }
            if (!ek) {
                *found = false;
                *at = freeslot >= 0 ? (uint64_t)freeslot : p;
                *kind = freeslot >= 0 ? K_ADD_DUMMY : K_ADD_UNUSED;
                return 0;
            }
            if (eh == hash) {
                int eq = ek == key ? 1 : container_fast_eq(ek, key);
                if (eq == -2)
                    return -2;
                if (eq) {
                    *found = true;
                    *at = p;
                    return 0;
                }
            } else if (eh == -1) {
                freeslot = (int64_t)p;   /* as set.c's s_add: the last dummy seen */
            }
            p++;
        } while (probes--);
        perturb >>= PERTURB_SHIFT;
        i = (i * 5 + 1 + perturb) & mask;
    }
}

static void log_push(Obj log, int j, int kind, uint64_t slot, Obj key, int64_t hash)
{
    int64_t k = clog_n++;
    if (k >= LOG_MAX)
        log_broken("an entry past the log's end");
    struct sentry *e = &clog[k];
    *e = (struct sentry){.slot = slot, .hash = hash, .key = (uintptr_t)key, .kind = (uint8_t)kind, .set = (uint8_t)j};
    if (key && !IS_SMALLINT(key)) {   /* its room was made by log_prepare */
        Obj chunk = hdr(log)[H_KEYS + nheap / KEY_CHUNK];
        VM_WRITE(chunk);   /* made by this transaction */
        ((ArrayObj *)chunk)->items[nheap % KEY_CHUNK] = key;   /* no barrier: as hdr */
        e->heap = true;
        e->key = (uintptr_t)nheap++;
    }
    if (!set_n[j]++)
        set_first[j] = k;
    set_fill[j] += kind == K_ADD_UNUSED;
    pmap_put(j, slot, (int32_t)k);
}

int set_log_add(Obj *sp, Obj *kp, int64_t hash)
{
    int j;
    int rc = log_prepare(sp, !IS_SMALLINT(*kp), &j);
    if (rc <= 0)
        return rc;
    Obj log = slog(), so = *sp;
    bool found;
    uint64_t at;
    int kind;
    if (log_probe(log, j, so, *kp, hash, &found, &at, &kind) < 0)
        return 0;
    if (found)
        return 1;
    if (kind == K_ADD_UNUSED) {   /* within this segment's fill allowance, pending adds counted */
        Obj table = SETOBJ_NOFLUSH(so)->table;
        int64_t __seg_gs *st = t_stripe(table, my_stripe());
        tm_read_at((uintptr_t)st);
        if (st[ST_FILL] + set_fill[j] >= st[ST_ALLOW])
            return 0;   /* the plain add folds the stripes */
    }
    log_push(log, j, kind, at, *kp, hash);
    return 1;
}

int set_log_discard(Obj *sp, Obj *kp, int64_t hash, bool *removed)
{
    int j;
    int rc = log_prepare(sp, false, &j);
    if (rc <= 0)
        return rc;
    Obj log = slog();
    bool found;
    uint64_t at;
    int kind;
    if (log_probe(log, j, *sp, *kp, hash, &found, &at, &kind) < 0)
        return 0;
    *removed = found;
    if (found)
        log_push(log, j, K_DISCARD, at, NULL, -1);
    return 1;
}

/* Consecutive slots of one table, so that the commit takes and prepares
 * them in runs (a transaction's adds of consecutive ints fill consecutive
 * slots), not one call per entry. */
struct run {
    Obj table;
    uint64_t lo, hi;
};
static bool run_prepare(struct run *r)
{
    if (r->table) {
        tm_prepare_write_items((object_t *)r->table, r->lo, r->hi - r->lo + 1);
        tm_prepare_write_items((object_t *)t_hashobj(r->table), r->lo * 8, (r->hi - r->lo + 1) * 8);
    }
    return true;
}
static bool run_take(struct run *r)
{
    return !r->table ||
           (tm_commit_write_items((object_t *)r->table, r->lo, r->hi - r->lo + 1) &&
            tm_commit_write_items((object_t *)t_hashobj(r->table), r->lo * 8, (r->hi - r->lo + 1) * 8));
}
/* Does slot s lie in the cards of slot t, in the keys and in the hashes? */
static inline bool same_cards(Obj table, uint64_t s, uint64_t t)
{
    return tm_same_card((uintptr_t)&t_keys_nb(table)[s], (uintptr_t)&t_keys_nb(table)[t]) &&
           tm_same_card((uintptr_t)&t_hashes_nb(table)[s], (uintptr_t)&t_hashes_nb(table)[t]);
}
/* Add a slot to the run; one that does not touch it starts a new run, the
 * old one handed to `done` first (false: done failed). A slot past a gap
 * joins the run while it lies in the cards of the run's end: the cards are
 * what is taken and published, so the gap costs nothing, and a loop of
 * discards of every other int (set_add_discard) no longer made a run, and
 * two calls with the world stopped, per slot. */
static inline bool run_add(struct run *r, Obj table, uint64_t slot, bool (*done)(struct run *))
{
    if (r->table == table && ((slot + 1 >= r->lo && slot <= r->hi + 1) || (slot > r->hi && same_cards(table, slot, r->hi)) ||
                              (slot < r->lo && same_cards(table, slot, r->lo)))) {
        r->lo = slot < r->lo ? slot : r->lo;
        r->hi = slot > r->hi ? slot : r->hi;
        return true;
    }
    if (!done(r))
        return false;
    *r = (struct run){table, slot, slot};
    return true;
}

/* Commit, first (ordinary transactional code): an inevitable transaction
 * stores plainly (its merge must not fail); otherwise the pages the merge
 * will write are made ready before the world stops. */
void set_log_before_commit(void)
{
    Obj log = slog();
    if (!log)
        return;
    if (tm_is_inevitable()) {
        set_flush_pending();
        return;
    }
    struct run r = {0};
    for (int64_t k = 0; k < clog_n; k++)
        if (!clog[k].dead)
            run_add(&r, hdr(log)[H_TABLE + clog[k].set], clog[k].slot, run_prepare);
    run_prepare(&r);
}

/* Commit, with the world stopped: take every slot and stripe the apply
 * will write (the merge may write in place: nothing may fail once it
 * wrote). False: the transaction aborts (a plain writer holds one: the
 * retry logs again; the table changed: the retry stores plainly). */
bool set_log_merge_check(void)
{
    Obj log = slog();
    if (!log)
        return true;
    int ms = my_stripe();
    for (int j = 0; j < LOG_SETS; j++) {
        Obj so = hdr(log)[H_SET + j], table = hdr(log)[H_TABLE + j];
        if (!so || !set_n[j])
            continue;
        if (((SetObj *)so)->table != table) {   /* no barrier: the committed state, the world stopped */
            logs_plain = true;
            return false;
        }
        if (!tm_commit_unheld((object_t *)so))   /* a resize under way: let it commit first */
            return false;
        if (!tm_commit_write_items((object_t *)t_hashobj(table), stripe_offset(t_size(table), ms), 24))
            return false;
    }
    struct run r = {0};
    for (int64_t k = 0; k < clog_n; k++)
        if (!clog[k].dead && !run_add(&r, hdr(log)[H_TABLE + clog[k].set], clog[k].slot, run_take))
            return false;
    return run_take(&r);
}

/* Then the entries go into the committed tables in log order, and each
 * set's counts into this segment's stripe. */
void set_log_merge_apply(void)
{
    Obj log = slog();
    logs_plain = false;
    if (!log)
        return;
    Obj dummy = set_dummy_key();
    int64_t du[LOG_SETS] = {0}, df[LOG_SETS] = {0}, live = 0;
    for (int64_t k = 0; k < clog_n; k++) {
        struct sentry *e = &clog[k];
        if (e->dead)
            continue;
        live++;
        Obj table = hdr(log)[H_TABLE + e->set];
        Obj __seg_gs *key = &t_keys_nb(table)[e->slot];   /* no barrier: taken by set_log_merge_check */
        int64_t __seg_gs *hash = &t_hashes_nb(table)[e->slot];
        /* The probe's reads were checked: the slot holds what it saw. */
        if (e->kind == K_ADD_UNUSED ? *key != NULL : e->kind == K_ADD_DUMMY ? *key != dummy : !*key || *key == dummy)
            log_broken("a slot changed under a pending entry");
        *key = e->kind == K_DISCARD ? dummy : entry_key(log, e);
        *hash = e->kind == K_DISCARD ? -1 : e->hash;
        du[e->set] += e->kind == K_DISCARD ? -1 : 1;
        df[e->set] += e->kind == K_ADD_UNUSED;
    }
    int ms = my_stripe();
    for (int j = 0; j < LOG_SETS; j++) {
        Obj table = hdr(log)[H_TABLE + j];
        if (!table || (!du[j] && !df[j]))
            continue;
        int64_t __seg_gs *st = t_stripe(table, ms);
        st[ST_USED] += du[j];
        st[ST_FILL] += df[j];
    }
    __atomic_fetch_add(&vm_set_ops_blind, (uint64_t)live, __ATOMIC_RELAXED);
    vm_ts.roots[ROOT_SET_OPS] = NULL;
    vm_set_logging = false;
    clog_n = 0;
}

void set_log_init(void)
{
    const char *e = getenv("TMPY_TEST_SET_SKIP_FLUSH");
    skip_flush = e && *e == '1';
}
#endif
