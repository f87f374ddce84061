/* The HTM elision's statistics as the interpreter shows them (tmpy-gil
 * --tm=htm): tm.stats() entries and the TMPY_STATS=1 report, with the
 * runtime's yield-point sites (runtime/txlength.h) named file:line; the
 * STM build's report of its own sites (txstate.c) shares the printer. */
#include "eval.h"

#include <stdio.h>
#include <stdlib.h>

/* The yield point a site names; false for 0 (a start outside a yield
 * point: a new thread, after a blocking call) or a code object no longer
 * there (statistics only: a freed one may read as another object). */
bool vm_site_place(uintptr_t site, const char **file, int *line)
{
    uintptr_t off = site & (((uintptr_t)1 << VM_SITE_SHIFT) - 1);
    if (!off)
        return false;
    CodeObj *co = (CodeObj *)off;
    if (co->h.tid != TID_CODE || !IS_STR(co->filename))
        return false;
    uint64_t idx = site >> VM_SITE_SHIFT;
    if (idx >= co->ninstr)
        idx = co->ninstr ? co->ninstr - 1 : 0;
    *file = str_cstr(co->filename);
    *line = code_line_at(co, (int64_t)idx);
    return true;
}

static int by_started(const void *a, const void *b)
{
    const tm_txlen_site *x = *(const tm_txlen_site *const *)a, *y = *(const tm_txlen_site *const *)b;
    return x->started < y->started ? 1 : x->started > y->started ? -1 : 0;
}

/* The sites of pol in use, most transactions first; *n of them (free() the array). */
static const tm_txlen_site **sorted_sites(const tm_txlen_policy *pol, size_t *n)
{
    const tm_txlen_site **v = malloc(TM_TXLEN_SITES * sizeof *v);
    *n = 0;
    if (!v)
        return NULL;
    for (size_t i = 0; i < TM_TXLEN_SITES; i++)
        if (pol->sites[i].site != TM_TXLEN_EMPTY && pol->sites[i].started)
            v[(*n)++] = &pol->sites[i];
    qsort(v, *n, sizeof *v, by_started);
    return v;
}

/* TMPY_STATS=1: the ten sites of pol with the most transactions. */
void vm_txlen_print_sites(const tm_txlen_policy *pol, const char *label)
{
    size_t n = 0;
    const tm_txlen_site **v = sorted_sites(pol, &n);
    for (size_t i = 0; i < n && i < 10; i++) {
        const tm_txlen_site *t = v[i];
        const char *file = "<start>";
        int line = 0;
        vm_site_place(t->site, &file, &line);
        uint32_t in_period = t->counter > pol->p.period ? pol->p.period : t->counter;
        fprintf(stderr, "tmpy stats: %s %s:%d: length %u (cut %u times, %s, %u aborts in %u of its period), "
                "%llu transactions, %llu aborted; at this length %llu, %llu aborted (%.1f%%)\n", label, file, line, t->length,
                t->shortened, tm_txlen_settled(pol, t) ? "settled" : "profiling", t->aborts, in_period,
                (unsigned long long)t->started,
                (unsigned long long)t->aborted, (unsigned long long)t->started_at_length,
                (unsigned long long)t->aborted_at_length,
                t->started_at_length ? 100.0 * (double)t->aborted_at_length / (double)t->started_at_length : 0.0);
    }
    free(v);
}

#if !TM_STM
static const char *const stat_names[TM_ELIDE_STATS] = {
    [TM_ELIDE_STARTED] = "htm_started",
    [TM_ELIDE_COMMITTED] = "htm_committed",
    [TM_ELIDE_ABORT_CONFLICT] = "conflict",
    [TM_ELIDE_ABORT_CAPACITY] = "capacity",
    [TM_ELIDE_ABORT_GIL_HELD] = "gil_held",
    [TM_ELIDE_ABORT_NEED_GIL] = "need_gil",
    [TM_ELIDE_ABORT_EXPLICIT] = "explicit",
    [TM_ELIDE_ABORT_OTHER] = "other",
    [TM_ELIDE_RETRIES_TRANSIENT] = "htm_retries_transient",
    [TM_ELIDE_RETRIES_GIL] = "htm_retries_gil",
    [TM_ELIDE_SPINS] = "gil_spins",
    [TM_ELIDE_GIL_ALONE] = "gil_alone",
    [TM_ELIDE_GIL_SPIN_TIMEOUT] = "fallback_spin_timeout",
    [TM_ELIDE_GIL_RETRIES_OUT] = "fallback_gil_retries_out",
    [TM_ELIDE_GIL_PERSISTENT] = "fallback_persistent",
    [TM_ELIDE_GIL_TRANSIENT_OUT] = "fallback_transient_out",
    [TM_ELIDE_NEED_GIL_IN_FAKE] = "fake_need_gil_went_on",
    [TM_ELIDE_LENGTH_CUTS] = "length_cuts",
};
#define FIRST_ABORT TM_ELIDE_ABORT_CONFLICT
#define LAST_ABORT TM_ELIDE_ABORT_OTHER

static int put_u64(Obj d, const char *key, uint64_t v)
{
    Obj *r = vm_roots(1);
    r[0] = int_from_u64(v);
    int rc = r[0] ? dict_setitem_cstr(d, key, r[0]) : -1;
    vm_unroots(r);
    return rc;
}

/* One (file, line, length, transactions, aborted, cuts, settled) tuple. */
static Obj site_tuple(const tm_txlen_site *s)
{
    const char *file = "<start>";
    int line = 0;
    vm_site_place(s->site, &file, &line);
    Obj *r = vm_roots(7);
    Obj res = NULL;
    if (!(r[0] = str_from_cstr(file)) || !(r[1] = int_from_i64(line)) || !(r[2] = int_from_u64(s->length)) ||
        !(r[3] = int_from_u64(s->started)) || !(r[4] = int_from_u64(s->aborted)) ||
        !(r[5] = int_from_u64(s->shortened)))
        goto out;
    r[6] = tm_txlen_settled(&tm_elision_policy, s) ? g_True : g_False;
    res = tuple_pack(7, r[0], r[1], r[2], r[3], r[4], r[5], r[6]);
out:
    vm_unroots(r);
    return res;
}

int vm_elision_stats(Obj d)
{
    Obj *r = vm_roots(3);
    int rc = -1;
    r[0] = d;
    tm_elision_stats s;
    tm_elision_get_stats(&s);
    if (put_u64(r[0], "htm", tm_elision_on) < 0)
        goto out;
    for (int i = 0; i < TM_ELIDE_STATS; i++)
        if ((i < FIRST_ABORT || i > LAST_ABORT) && put_u64(r[0], stat_names[i], s.c[i]) < 0)
            goto out;
    uint64_t aborted = 0;
    if (!(r[1] = dict_new()))
        goto out;
    for (int i = FIRST_ABORT; i <= LAST_ABORT; i++) {
        aborted += s.c[i];
        if (put_u64(r[1], stat_names[i], s.c[i]) < 0)
            goto out;
    }
    if (dict_setitem_cstr(r[0], "htm_aborts_by_cause", r[1]) < 0 || put_u64(r[0], "htm_aborted", aborted) < 0 ||
        put_u64(r[0], "gil_fallbacks", s.gil_fallbacks) < 0)
        goto out;
    /* htm_sites: (file, line, length, transactions, aborted, cuts, settled), most transactions first */
    if (!(r[1] = list_new_capacity(0)))
        goto out;
    size_t n = 0;
    const tm_txlen_site **v = tm_elision_on ? sorted_sites(&tm_elision_policy, &n) : NULL;
    for (size_t i = 0; i < n; i++) {
        if (!(r[2] = site_tuple(v[i])) || list_append(r[1], r[2]) < 0) {
            free(v);
            goto out;
        }
    }
    free(v);
    if (dict_setitem_cstr(r[0], "htm_sites", r[1]) < 0)
        goto out;
    /* gil_fallback_windows: (begins, fallbacks) over doubling windows of begins */
    tm_elision_window w[TM_ELIDE_WINDOWS];
    int nw = tm_elision_windows(w);
    if (!(r[1] = list_new_capacity(0)))
        goto out;
    for (int k = 0; k < nw; k++) {
        Obj *q = vm_roots(2);
        q[0] = int_from_u64(w[k].begins);
        q[1] = q[0] ? int_from_u64(w[k].fallbacks) : NULL;
        r[2] = q[1] ? tuple_pack(2, q[0], q[1]) : NULL;
        vm_unroots(q);
        if (!r[2] || list_append(r[1], r[2]) < 0)
            goto out;
    }
    if (dict_setitem_cstr(r[0], "gil_fallback_windows", r[1]) < 0)
        goto out;
    rc = 0;
out:
    vm_unroots(r);
    return rc;
}

void vm_elision_print_stats(void)
{
    if (!tm_elision_on)
        return;
    tm_elision_stats s;
    tm_elision_get_stats(&s);
    const uint64_t *c = s.c;
    fprintf(stderr, "tmpy stats: htm (%s): %llu hardware transactions, %llu committed, %llu aborted "
            "(conflict %llu, capacity %llu, gil_held %llu, need_gil %llu, explicit %llu, other %llu)\n",
            tm_elision_htm->name, (unsigned long long)c[TM_ELIDE_STARTED], (unsigned long long)c[TM_ELIDE_COMMITTED],
            (unsigned long long)(c[TM_ELIDE_ABORT_CONFLICT] + c[TM_ELIDE_ABORT_CAPACITY] + c[TM_ELIDE_ABORT_GIL_HELD] +
                                 c[TM_ELIDE_ABORT_NEED_GIL] + c[TM_ELIDE_ABORT_EXPLICIT] + c[TM_ELIDE_ABORT_OTHER]),
            (unsigned long long)c[TM_ELIDE_ABORT_CONFLICT], (unsigned long long)c[TM_ELIDE_ABORT_CAPACITY],
            (unsigned long long)c[TM_ELIDE_ABORT_GIL_HELD], (unsigned long long)c[TM_ELIDE_ABORT_NEED_GIL],
            (unsigned long long)c[TM_ELIDE_ABORT_EXPLICIT], (unsigned long long)c[TM_ELIDE_ABORT_OTHER]);
    fprintf(stderr, "tmpy stats: htm: %llu GIL fallbacks (spin timeout %llu, GIL retries out %llu, persistent %llu, "
            "transient retries out %llu), %llu GIL with one thread, %llu retries (transient %llu, GIL %llu), "
            "%llu spins, %llu length cuts\n",
            (unsigned long long)s.gil_fallbacks, (unsigned long long)c[TM_ELIDE_GIL_SPIN_TIMEOUT],
            (unsigned long long)c[TM_ELIDE_GIL_RETRIES_OUT], (unsigned long long)c[TM_ELIDE_GIL_PERSISTENT],
            (unsigned long long)c[TM_ELIDE_GIL_TRANSIENT_OUT], (unsigned long long)c[TM_ELIDE_GIL_ALONE],
            (unsigned long long)(c[TM_ELIDE_RETRIES_TRANSIENT] + c[TM_ELIDE_RETRIES_GIL]),
            (unsigned long long)c[TM_ELIDE_RETRIES_TRANSIENT], (unsigned long long)c[TM_ELIDE_RETRIES_GIL],
            (unsigned long long)c[TM_ELIDE_SPINS], (unsigned long long)c[TM_ELIDE_LENGTH_CUTS]);
    if (c[TM_ELIDE_NEED_GIL_IN_FAKE])
        fprintf(stderr, "tmpy stats: htm: the fake went on %llu times where hardware would abort to take the GIL\n",
                (unsigned long long)c[TM_ELIDE_NEED_GIL_IN_FAKE]);
    tm_elision_window w[TM_ELIDE_WINDOWS];
    int nw = tm_elision_windows(w);
    for (int k = 0; k < nw; k++) {
        uint64_t from = (uint64_t)TM_ELIDE_WINDOW * ((1ull << k) - 1);
        fprintf(stderr, "tmpy stats: htm: begins %llu..: %llu, GIL fallbacks %llu (%.1f%%)\n", (unsigned long long)from,
                (unsigned long long)w[k].begins, (unsigned long long)w[k].fallbacks,
                w[k].begins ? 100.0 * (double)w[k].fallbacks / (double)w[k].begins : 0.0);
    }
    vm_txlen_print_sites(&tm_elision_policy, "htm site");
}
#else
int vm_elision_stats(Obj d)
{
    (void)d;
    return 0;
}
void vm_elision_print_stats(void) {}
#endif
