/* STM: appends to a shared list that commit at the tail (docs/ARCHITECTURE.md,
 * "Appends to a shared list").
 *
 * `l.append(v)` writes ListObj.length and the array's tail, so two
 * transactions appending to one list always conflicted, and the items must
 * land in commit order. So an append by a transaction that can abort, to a
 * list it has not written yet (it is old: its header's write-barrier flag
 * is set), reads nothing of the list: it puts the item in the transaction's
 * append log (ROOT_LIST_APPENDS: per list, its count and an array of the
 * items, in program order). At commit, with the world stopped
 * (list_appends_merge_check, _apply), the items go to the committed tail, and ListObj's
 * length grows, through tm_commit_write(_items): the readers of the list
 * (every LIST() cast marks ListObj read) are then aborted by the ordinary
 * read check, and the other appenders, which never read it, go on.
 *
 * Program order: every read of a list goes through LIST(), which first
 * turns this transaction's pending appends to that list into plain ones
 * (list_flush_own_slow, behind a thread-local test). That turn must not
 * allocate (C locals around a LIST() are not rooted): when the committed
 * array has no room for the items, the transaction aborts and its retry
 * appends plainly (lists_plain). An inevitable transaction cannot abort,
 * so it logs nothing, and a transaction turns its log into plain appends
 * just before it becomes inevitable (tm_set_before_inevitable_hook), where
 * it can still abort. Before the world stops at commit (the `before` hook,
 * which may allocate), a list whose room looks short (a hint read without
 * a marker) is grown and gets its items plainly: a resize is the rare
 * global event; the array doubles past 8192 items. The merge checks the
 * room again and aborts the committer (its retry appends plainly) if
 * another merge took it meanwhile; a merge that finds the list or its tail
 * held by a plain writer aborts the committer, whose retry logs again. */
#include "containers.h"
#include "dictset.h"
#include "objects.h"

#include <stdio.h>
#include <stdlib.h>

#if TM_STM
#define LOG_LISTS 4        /* lists one transaction logs appends to */
#define LOG_W 3            /* per list: the list, its count, its last chunk of items */
/* A chunk: an ArrayObj of the previous chunk (NULL: none) and LOG_CHUNK
 * items. Small enough to stay a small object when the commit's minor
 * collection moves it (one array that grew would become a large object
 * every commit: fresh pages, faults). */
#define LOG_CHUNK 240

__thread bool vm_list_logging;        /* this thread's log may hold appends (LIST() looks) */
static __thread bool lists_plain;     /* the retry of a failed flush or merge appends plainly */
/* TMPY_TEST_LIST_SKIP_FLUSH=1 (tests only): LIST() does not turn the
 * transaction's pending appends into plain ones, so a thread that appends
 * and then reads the list sees it without them: tests/py/list_appends_threads.py
 * must then fail. */
static bool skip_flush;

static inline Obj alog(void) { return vm_ts.roots ? vm_ts.roots[ROOT_LIST_APPENDS] : NULL; }
static inline Obj __seg_gs *log_items(Obj log) { return ARRAY(log)->items; }

static int log_slot(Obj log, Obj l)
{
    for (int j = 0; j < LOG_LISTS; j++)
        if (log_items(log)[LOG_W * j] == l)
            return j;
    return -1;
}

static bool log_empty(Obj log)
{
    for (int j = 0; j < LOG_LISTS; j++)
        if (log_items(log)[LOG_W * j])
            return false;
    return true;
}

/* Take list j's entry out of the log: its count and last chunk (*items). */
static int64_t log_detach(Obj log, int j, Obj *items)
{
    VM_WRITE(log);   /* made by this transaction: the fast path */
    Obj __seg_gs *e = log_items(log) + LOG_W * j;
    int64_t cnt = SMALLINT_VAL(e[1]);
    *items = e[2];
    e[0] = NULL;
    e[1] = MAKE_SMALLINT(0);
    e[2] = NULL;
    if (log_empty(log)) {
        vm_ts.roots[ROOT_LIST_APPENDS] = NULL;
        vm_list_logging = false;
    }
    return cnt;
}

/* The cnt items of a chain of chunks (its last one) to to[0..cnt): the
 * last chunk first. Allocates nothing. */
static void log_copy_to(Obj chunk, int64_t cnt, Obj __seg_gs *to)
{
    while (cnt > 0) {
        int64_t base = (cnt - 1) / LOG_CHUNK * LOG_CHUNK;
        Obj __seg_gs *c = ((ArrayObj *)chunk)->items;   /* no barrier: the log is this transaction's */
        for (int64_t k = base; k < cnt; k++)
            to[k] = c[1 + k - base];
        chunk = c[0];
        cnt = base;
    }
}

static __attribute__((noreturn, cold)) void appends_broken(const char *what)
{
    fprintf(stderr, "tmpy: fatal: list append log: %s\n", what);
    abort();
}

/* LIST(l), this transaction having logged appends: if some are to l, they
 * become plain appends now (program order). Never allocates; aborts (the
 * retry appends plainly) if the array has no room for them. */
void list_flush_own_slow(Obj l)
{
    Obj log = alog();
    if (!log) {
        vm_list_logging = false;
        return;
    }
    int j = log_slot(log, l);
    if (j < 0 || skip_flush)
        return;
    Obj items;
    int64_t cnt = log_detach(log, j, &items);   /* first: the LIST() casts below come back here */
    Obj arr = LIST(l)->array;
    int64_t n = LIST(l)->length;
    if (n + cnt > ARRAY(arr)->length) {
        if (tm_is_inevitable())
            appends_broken("an inevitable transaction holds pending appends");
        lists_plain = true;
        tm_abort_transaction();
    }
    VM_WRITE_ITEMS(arr, n, cnt);
    log_copy_to(items, cnt, ARRAY(arr)->items + n);
    VM_WRITE(l);
    LIST(l)->length = n + cnt;
}

/* List j's logged items as plain appends (list_append: grows the list;
 * may allocate). */
static void log_append_plain(int j)
{
    Obj *r = vm_roots(2);
    r[0] = log_items(alog())[LOG_W * j];
    int64_t cnt = log_detach(alog(), j, &r[1]);
    /* The chain runs back from the last chunk: turn it round. */
    Obj prev = NULL;
    while (r[1]) {
        Obj c = r[1], next = ARRAY(c)->items[0];
        VM_WRITE(c);   /* made by this transaction */
        ARRAY(c)->items[0] = prev;
        prev = c;
        r[1] = next;
    }
    r[1] = prev;
    for (int64_t k = 0; r[1]; r[1] = ARRAY(r[1])->items[0])
        for (int64_t i = 1; i <= LOG_CHUNK && k < cnt; i++, k++)
            if (list_append(r[0], ARRAY(r[1])->items[i]) < 0)
                appends_broken("no memory for the pending appends of a transaction");
    vm_unroots(r);
}

/* Turn the whole log into plain appends, growing the lists as needed (may
 * allocate: every caller has its references rooted). */
void list_flush_pending(void)
{
    for (int j = 0; j < LOG_LISTS; j++) {
        Obj log = alog();
        if (!log)
            break;
        if (log_items(log)[LOG_W * j])
            log_append_plain(j);
    }
}

/* Before becoming inevitable (tm_set_before_inevitable_hook): no abort will
 * be possible to make room, so the log becomes plain appends now, or the
 * transaction aborts (room short) and its retry appends plainly. The sets'
 * blind entries become plain stores too (setlog.c). */
static void appends_before_inevitable(void)
{
    set_flush_pending();
    Obj log = alog();
    if (!log)
        return;
    for (int j = 0; j < LOG_LISTS; j++) {
        log = alog();
        if (!log)
            break;
        Obj l = log_items(log)[LOG_W * j];
        if (l)
            list_flush_own_slow(l);
    }
}

/* l.append(v) (the method): logged when l is shared and not yet written by
 * this transaction; otherwise a plain append. */
int list_append_shared(Obj l, Obj v)
{
    if (!(((object_t *)l)->h.flags & TM_GCFLAG_WRITE_BARRIER) || lists_plain || tm_is_inevitable())
        return list_append(l, v);
    Obj log = alog();
    int j = log ? log_slot(log, l) : -1;
    if (j < 0 && log)
        for (j = 0; j < LOG_LISTS && log_items(log)[LOG_W * j]; j++)
            ;
    if (j == LOG_LISTS)
        return list_append(l, v);   /* four lists logged already */
    if (j < 0)
        j = 0;
    Obj items = log ? log_items(log)[LOG_W * j + 2] : NULL;
    int64_t cnt = log ? SMALLINT_VAL(log_items(log)[LOG_W * j + 1]) : 0;
    if (!items || cnt % LOG_CHUNK == 0) {   /* a new chunk */
        Obj *r = vm_roots(4);
        r[0] = l;
        r[1] = v;
        r[2] = items;
        if (!log) {
            log = array_new(LOG_W * LOG_LISTS);
            if (!log) {
                vm_unroots(r);
                return -1;
            }
            VM_WRITE(log);
            for (int w = 0; w < LOG_LISTS; w++)
                ARRAY(log)->items[LOG_W * w + 1] = MAKE_SMALLINT(0);
            vm_ts.roots[ROOT_LIST_APPENDS] = log;
        }
        r[3] = array_new(1 + LOG_CHUNK);
        if (!r[3]) {
            vm_unroots(r);
            return -1;
        }
        VM_WRITE(r[3]);
        ARRAY(r[3])->items[0] = r[2];
        log = alog();
        VM_WRITE(log);
        log_items(log)[LOG_W * j] = r[0];
        log_items(log)[LOG_W * j + 2] = r[3];
        items = r[3];
        l = r[0];
        v = r[1];
        vm_unroots(r);
    }
    VM_WRITE(log);
    VM_WRITE(items);   /* made by this transaction */
    ARRAY(items)->items[1 + cnt % LOG_CHUNK] = v;
    log_items(log)[LOG_W * j] = l;
    log_items(log)[LOG_W * j + 1] = MAKE_SMALLINT(cnt + 1);
    vm_list_logging = true;
    return 0;
}

/* Commit, first (ordinary transactional code): an inevitable transaction's
 * log becomes plain appends (its merge must not fail); a list whose room
 * looks short grows here and gets its items plainly. */
void list_appends_before_commit(void)
{
    Obj log = alog();
    if (!log)
        return;
    if (tm_is_inevitable()) {
        list_flush_pending();
        return;
    }
    for (int j = 0; j < LOG_LISTS; j++) {
        log = alog();
        if (!log)
            return;
        Obj l = log_items(log)[LOG_W * j];
        if (!l)
            continue;
        int64_t cnt = SMALLINT_VAL(log_items(log)[LOG_W * j + 1]);
        ListObj *p = (ListObj *)l;   /* no barrier: a hint, checked again by the merge */
        Obj arr = p->array;
        int64_t n = p->length, cap = ((ArrayObj *)arr)->length;   /* no barrier: an array's length never changes */
        if (n + 2 * cnt + 64 <= cap) {
            tm_prepare_write_items((object_t *)arr, (uintptr_t)n, (uintptr_t)cnt);   /* ready before the world stops */
            continue;
        }
        /* Room short: this transaction grows the list (a resize) and
         * appends plainly. */
        Obj *r = vm_roots(1);
        r[0] = err_fetch();   /* the exception in flight, if any, stays */
        log_append_plain(j);
        if (r[0])
            err_set_obj(r[0]);
        vm_unroots(r);
    }
}

/* Commit, with the world stopped (tm_set_commit_hooks), in two steps: the
 * merge may write in place (the committed state itself: runtime/stm.c
 * merge_in_place), so nothing may fail once it wrote. First every logged
 * list is checked and taken (tm_commit_write(_items)); false: the
 * transaction aborts, and its retry appends plainly (room short) or logs
 * again (a plain writer held the list: it has committed by then). */
bool list_appends_merge_check(void)
{
    Obj log = alog();
    if (!log)
        return true;
    for (int j = 0; j < LOG_LISTS; j++) {
        Obj l = log_items(log)[LOG_W * j];
        if (!l)
            continue;
        int64_t cnt = SMALLINT_VAL(log_items(log)[LOG_W * j + 1]);
        ListObj *p = (ListObj *)l;   /* no barrier: the committed state, the world stopped */
        Obj arr = p->array;
        int64_t n = p->length;
        if (n + cnt > ((ArrayObj *)arr)->length) {   /* no barrier: an array's length never changes */
            lists_plain = true;   /* room short: the retry grows the list */
            return false;
        }
        if (!tm_commit_write((object_t *)l) || !tm_commit_write_items((object_t *)arr, (uintptr_t)n, (uintptr_t)cnt))
            return false;
    }
    return true;
}

/* Then each logged list's items go to its committed tail, in log order. */
void list_appends_merge_apply(void)
{
    Obj log = alog();
    lists_plain = false;
    if (!log)
        return;
    for (int j = 0; j < LOG_LISTS; j++) {
        Obj l = log_items(log)[LOG_W * j];
        if (!l)
            continue;
        int64_t cnt = SMALLINT_VAL(log_items(log)[LOG_W * j + 1]);
        Obj items = log_items(log)[LOG_W * j + 2];
        ListObj *p = (ListObj *)l;   /* no barrier: taken by list_appends_merge_check */
        Obj arr = p->array;
        int64_t n = p->length;
        log_copy_to(items, cnt, ((ArrayObj *)arr)->items + n);   /* no barrier: tm_commit_write_items made them ours */
        p->length = n + cnt;
    }
    vm_ts.roots[ROOT_LIST_APPENDS] = NULL;
    vm_list_logging = false;
}

void list_appends_init(void)
{
    tm_set_before_inevitable_hook(appends_before_inevitable);
    const char *e = getenv("TMPY_TEST_LIST_SKIP_FLUSH");
    skip_flush = e && *e == '1';
}
#endif
